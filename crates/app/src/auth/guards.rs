use std::{future::Future, pin::Pin};

use accounts::{Role, User, UserId};
use actix_session::{Session, SessionExt};
use actix_web::{dev::Payload, web, FromRequest, HttpRequest};

use super::accounts_service::AccountsService;
use super::keys::{LOGGED_IN_AT_KEY, USER_ID_KEY};
use crate::error::ApiError;

/// The logged-in user, read fresh from the database on every request so a changed role or a
/// deleted account takes effect at once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CurrentUser {
    pub id: i64,
    pub name: String,
    pub email: String,
    pub role: Role,
    /// The language the account chose for its mail; `None`: never chosen.
    pub language: Option<shared::Language>,
}

impl From<&CurrentUser> for dto::account::UserResponse {
    fn from(user: &CurrentUser) -> Self {
        dto::account::UserResponse {
            id: user.id,
            name: user.name.clone(),
            email: user.email.clone(),
            account_type: user.role.into(),
        }
    }
}

impl From<User> for CurrentUser {
    fn from(user: User) -> Self {
        CurrentUser {
            id: user.id.get(),
            name: user.name.as_str().to_owned(),
            email: user.email.as_str().to_owned(),
            role: user.role,
            language: user.language,
        }
    }
}

impl CurrentUser {
    /// This user as the actor of an audited staff action from `ip` (the audit log keeps the
    /// name they have now).
    pub fn actor(&self, ip: crate::client_ip::ClientIp) -> shared::Actor {
        shared::Actor::staff(self.user_id(), self.name.clone(), ip)
    }

    /// This user's id as the domains take it.
    pub fn user_id(&self) -> shared::UserId {
        shared::UserId::new(self.id)
    }
}

/// Any logged-in user; 401 otherwise.
#[derive(Debug, Clone)]
pub struct RequireUser(pub CurrentUser);

/// An admin or super_admin; 401 without a session, 403 for a customer.
#[derive(Debug, Clone)]
pub struct RequireStaff(pub CurrentUser);

/// A super_admin; 401 without a session, 403 for anyone else.
#[derive(Debug, Clone)]
pub struct RequireSuperAdmin(pub CurrentUser);

/// The user if logged in; never fails for want of a session.
#[derive(Debug, Clone)]
pub struct MaybeUser(pub Option<CurrentUser>);

const NO_PERMISSION: &str = "You do not have permission to do that.";

#[derive(Debug, Clone, Copy)]
enum Need {
    User,
    Staff,
    SuperAdmin,
}

/// The guards' one rule.
fn authorize(user: Option<CurrentUser>, need: Need) -> Result<CurrentUser, ApiError> {
    let user =
        user.ok_or_else(|| ApiError::Unauthorized(l10n::Text::new("error-log-in").into()))?;
    let allowed = match need {
        Need::User => true,
        Need::Staff => user.role.is_staff(),
        Need::SuperAdmin => user.role == Role::SuperAdmin,
    };
    if allowed {
        Ok(user)
    } else {
        Err(ApiError::Forbidden(NO_PERMISSION.to_owned().into()))
    }
}

/// The session's user id, if it holds one.
pub(crate) fn session_user_id(session: &Session) -> Option<UserId> {
    session
        .get::<i64>(USER_ID_KEY)
        .ok()
        .flatten()
        .map(UserId::new)
}

/// When the session's user logged in.
fn logged_in_at(session: &Session) -> Option<chrono::DateTime<chrono::Utc>> {
    session
        .get::<i64>(LOGGED_IN_AT_KEY)
        .ok()
        .flatten()
        .and_then(|secs| chrono::DateTime::from_timestamp(secs, 0))
}

/// Looks the session's user up. A session whose user no longer exists, or that is past its
/// absolute lifetime (or does not say when it logged in), is ended.
async fn current_user(req: &HttpRequest) -> Result<Option<CurrentUser>, ApiError> {
    let session = req.get_session();
    let Some(id) = session_user_id(&session) else {
        return Ok(None);
    };
    let accounts = req
        .app_data::<web::Data<AccountsService>>()
        .ok_or_else(|| {
            ApiError::internal(anyhow::anyhow!("the accounts service is not registered"))
        })?;
    match accounts.user(id).await {
        Ok(Some(user)) => {
            let current =
                logged_in_at(&session).is_some_and(|at| accounts.session_is_current(user.role, at));
            if current {
                Ok(Some(user.into()))
            } else {
                tracing::info!(user = %user.id, "session past its lifetime ended");
                session.purge();
                Ok(None)
            }
        }
        Ok(None) => {
            session.purge();
            Ok(None)
        }
        Err(error) => Err(ApiError::internal(
            anyhow::Error::new(error).context("failed to load the session's user"),
        )),
    }
}

/// How long the storefront's page waits for its session before going out without it.
const PAGE_SESSION_WAIT: std::time::Duration = std::time::Duration::from_millis(500);

/// The user of the request's session for a page answered without the session middleware
/// (`session::needs_no_session`): `Some(None)` for a visitor without a session (or whose
/// session is gone), `Some(Some(user))` for a current one, and `None` when the page should go
/// out without the session: the store did not answer within [`PAGE_SESSION_WAIT`], the user
/// could not be read, or the session is past its lifetime or its user is gone (the app then
/// asks `GET /api/auth/check`, which ends it). Reads only; never writes the session.
pub(crate) async fn page_user(req: &HttpRequest) -> Option<Option<CurrentUser>> {
    let sessions = req.app_data::<web::Data<super::session::LiveSessions>>()?;
    let state = match sessions.state_of(req, PAGE_SESSION_WAIT).await {
        Ok(state) => state,
        Err(error) => {
            tracing::warn!(error = %error, "the page goes out without its session");
            return None;
        }
    };
    let field = |key: &str| {
        state
            .as_ref()
            .and_then(|state| state.get(key))
            .and_then(|value| serde_json::from_str::<i64>(value).ok())
    };
    let Some(id) = field(USER_ID_KEY) else {
        return Some(None);
    };
    let accounts = req.app_data::<web::Data<AccountsService>>()?;
    let user = match accounts.user(UserId::new(id)).await {
        Ok(user) => user?,
        Err(error) => {
            tracing::warn!(error = %error, "the page goes out without its session's user");
            return None;
        }
    };
    // past its lifetime, or not saying when it logged in: the API ends it
    field(LOGGED_IN_AT_KEY)
        .and_then(|secs| chrono::DateTime::from_timestamp(secs, 0))
        .filter(|at| accounts.session_is_current(user.role, *at))?;
    Some(Some(user.into()))
}

type Extracted<T> = Pin<Box<dyn Future<Output = Result<T, ApiError>>>>;

macro_rules! guard {
    ($guard:ident, $need:expr) => {
        impl FromRequest for $guard {
            type Error = ApiError;
            type Future = Extracted<Self>;

            fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
                let req = req.clone();
                Box::pin(async move { authorize(current_user(&req).await?, $need).map($guard) })
            }
        }
    };
}

guard!(RequireUser, Need::User);
guard!(RequireStaff, Need::Staff);
guard!(RequireSuperAdmin, Need::SuperAdmin);

impl FromRequest for MaybeUser {
    type Error = ApiError;
    type Future = Extracted<Self>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let req = req.clone();
        Box::pin(async move { current_user(&req).await.map(MaybeUser) })
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn user(role: Role) -> Option<CurrentUser> {
        Some(CurrentUser {
            id: 1,
            name: "Ann".into(),
            email: "ann@example.com".into(),
            role,
            language: None,
        })
    }

    fn status(result: Result<CurrentUser, ApiError>) -> u16 {
        use actix_web::ResponseError;
        match result {
            Ok(_) => 200,
            Err(error) => error.status_code().as_u16(),
        }
    }

    #[test]
    fn without_a_session_every_guard_answers_401() {
        for need in [Need::User, Need::Staff, Need::SuperAdmin] {
            assert_eq!(status(authorize(None, need)), 401);
        }
    }

    #[test]
    fn staff_routes_take_admins_and_super_admins_only() {
        assert_eq!(status(authorize(user(Role::Customer), Need::Staff)), 403);
        assert_eq!(status(authorize(user(Role::Admin), Need::Staff)), 200);
        assert_eq!(status(authorize(user(Role::SuperAdmin), Need::Staff)), 200);
    }

    #[test]
    fn super_admin_routes_take_super_admins_only() {
        assert_eq!(
            status(authorize(user(Role::Customer), Need::SuperAdmin)),
            403
        );
        assert_eq!(status(authorize(user(Role::Admin), Need::SuperAdmin)), 403);
        assert_eq!(
            status(authorize(user(Role::SuperAdmin), Need::SuperAdmin)),
            200
        );
    }

    #[test]
    fn any_logged_in_user_passes_the_user_guard() {
        for role in [Role::Customer, Role::Admin, Role::SuperAdmin] {
            assert_eq!(status(authorize(user(role), Need::User)), 200);
        }
    }
}
