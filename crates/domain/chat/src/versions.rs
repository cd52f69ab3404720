//! The help chat's poll cache: what a poll that finds nothing new is answered from, without
//! touching the database (docs/architecture.md, "The help chat's poll cache").
//!
//! Every chat has an entry holding whose it is (the session id, which never changes) and the
//! last bodies rendered for it (status, history, staff views), each tagged with the chat's
//! database `version` it was rendered from. Every write this instance makes drops the chat's
//! bodies (and the staff list's) at once. Writes made by OTHER instances are noticed by
//! [`ChatVersions::refresh`], which runs about once a second: one read of the chats changed
//! since the last check (id, version, status) drops the bodies whose version moved, and one
//! count of the chats tells when a chat was deleted somewhere (then the cached ids are looked
//! up once). So another instance's write shows here within about a second; this instance's own
//! writes show at once.
//!
//! A body may only be installed when no write happened between the moment its database read
//! started and now: a caller takes a [`Ticket`] before reading, and [`ChatVersions::install`]
//! refuses the body when the chat changed after that ticket was issued.
//!
//! What a body is (the app keeps rendered JSON with its ETag) is the caller's: the cache only
//! keeps and hands back clones of it.

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use chrono::{DateTime, Utc};

use crate::{ChatChange, ChatChanges, ChatId, ChatStatus, SessionId};

/// How far back each check for other instances' writes reaches beyond the previous check: it
/// covers writes still committing at the last check and clocks a little apart between instances.
const OVERLAP: Duration = Duration::from_secs(5);
/// Entries nobody polled for this long are dropped (memory stays bounded by active chats).
const IDLE_ENTRY: Duration = Duration::from_secs(15 * 60);

/// The bodies kept per chat: what each side polls.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum View {
    /// The shopper's status poll: the chat without messages, the shopper's unread flag.
    Status,
    /// The shopper's history: the chat with messages.
    History,
    /// Staff's view of the chat: with messages, staff's unread flag.
    StaffChat,
    /// Staff's view of the messages alone.
    StaffMessages,
}

/// What the cache knows about a poll.
#[derive(Debug, Clone)]
pub enum Lookup<B> {
    /// The body to answer with.
    Hit(B),
    /// The chat is known to belong to another session: 404 without asking the database.
    NotOwner,
    /// Nothing usable: read the database.
    Miss,
}

/// Taken before a database read; see [`ChatVersions::install`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ticket(u64);

#[derive(Debug)]
struct Entry<B> {
    session: Option<SessionId>,
    /// The database version the bodies were rendered from.
    version: Option<u64>,
    /// The epoch of the last write seen for this chat.
    changed: u64,
    bodies: HashMap<View, B>,
    used: Instant,
}

impl<B> Entry<B> {
    fn new() -> Self {
        Entry {
            session: None,
            version: None,
            changed: 0,
            bodies: HashMap::new(),
            used: Instant::now(),
        }
    }
}

/// How many staff list pages (by filter and cursor) are kept at most.
const STAFF_PAGES: usize = 16;

#[derive(Debug)]
struct StaffList<B> {
    /// The rendered pages by their query (filter and cursor).
    bodies: HashMap<String, B>,
    /// The chats (and versions) the pages were rendered from.
    versions: HashMap<ChatId, u64>,
    changed: u64,
}

impl<B> Default for StaffList<B> {
    fn default() -> Self {
        StaffList {
            bodies: HashMap::new(),
            versions: HashMap::new(),
            changed: 0,
        }
    }
}

impl<B> StaffList<B> {
    fn drop_pages(&mut self, epoch: u64) {
        self.bodies.clear();
        self.versions.clear();
        self.changed = epoch;
    }
}

#[derive(Debug)]
struct Inner<B> {
    chats: HashMap<ChatId, Entry<B>>,
    list: StaffList<B>,
    /// The number of chats at the last check; a change means a create or a delete somewhere.
    chat_count: Option<u64>,
    /// When the last check for other instances' writes started.
    checked_at: DateTime<Utc>,
}

/// The per-chat versions and bodies of one instance. Shared by all workers.
#[derive(Debug)]
pub struct ChatVersions<B> {
    inner: Mutex<Inner<B>>,
    /// Grows with every write seen (this instance's or another's).
    epoch: AtomicU64,
}

impl<B: Clone> ChatVersions<B> {
    /// An empty cache whose first check looks for writes since `now`.
    pub fn new(now: DateTime<Utc>) -> Self {
        ChatVersions {
            inner: Mutex::new(Inner {
                chats: HashMap::new(),
                list: StaffList::default(),
                chat_count: None,
                checked_at: now,
            }),
            epoch: AtomicU64::new(1),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner<B>> {
        match self.inner.lock() {
            Ok(guard) => guard,
            Err(poisoned) => poisoned.into_inner(),
        }
    }

    /// Take before reading the database for a body to install.
    pub fn ticket(&self) -> Ticket {
        Ticket(self.epoch.load(Ordering::SeqCst))
    }

    /// The cached `view` of the chat for `session` (`None`: staff, no ownership check).
    pub fn lookup(&self, id: ChatId, session: Option<&SessionId>, view: View) -> Lookup<B> {
        let mut inner = self.lock();
        let Some(entry) = inner.chats.get_mut(&id) else {
            return Lookup::Miss;
        };
        entry.used = Instant::now();
        if let (Some(owner), Some(asked)) = (&entry.session, session) {
            if owner != asked {
                return Lookup::NotOwner;
            }
        }
        match entry.bodies.get(&view) {
            Some(cached) => Lookup::Hit(cached.clone()),
            None => Lookup::Miss,
        }
    }

    /// Records whose the chat is (known at creation, or after the database said so).
    pub fn remember_owner(&self, id: ChatId, session: &SessionId) {
        let mut inner = self.lock();
        let entry = inner.chats.entry(id).or_insert_with(Entry::new);
        entry.session = Some(session.clone());
        entry.used = Instant::now();
    }

    /// Keeps `body` as the chat's `view` at `version`, unless the chat changed after `ticket`
    /// was taken (the body may then be older than that change). Returns the body to answer
    /// with either way.
    pub fn install(
        &self,
        id: ChatId,
        session: &SessionId,
        version: u64,
        ticket: Ticket,
        view: View,
        body: B,
    ) -> B {
        let mut inner = self.lock();
        let entry = inner.chats.entry(id).or_insert_with(Entry::new);
        entry.session = Some(session.clone());
        entry.used = Instant::now();
        if entry.changed > ticket.0 {
            return body;
        }
        if entry.version != Some(version) {
            entry.bodies.clear();
            entry.version = Some(version);
        }
        entry.bodies.insert(view, body.clone());
        body
    }

    /// This instance wrote to the chat (or learnt that another did): its bodies and the staff
    /// list are stale.
    pub fn changed(&self, id: ChatId) {
        let epoch = self.epoch.fetch_add(1, Ordering::SeqCst) + 1;
        let mut inner = self.lock();
        let entry = inner.chats.entry(id).or_insert_with(Entry::new);
        entry.changed = epoch;
        entry.version = None;
        entry.bodies.clear();
        inner.list.drop_pages(epoch);
    }

    /// The chats are gone (purged): their entries and the staff list's pages go, without
    /// making entries for chats this instance never served.
    pub fn forget(&self, ids: &[ChatId]) {
        if ids.is_empty() {
            return;
        }
        let epoch = self.epoch.fetch_add(1, Ordering::SeqCst) + 1;
        let mut inner = self.lock();
        for id in ids {
            inner.chats.remove(id);
        }
        inner.list.drop_pages(epoch);
    }

    /// The staff list page asked for by `query` (its filter and cursor), if nothing changed
    /// since it was rendered.
    pub fn staff_list(&self, query: &str) -> Option<B> {
        self.lock().list.bodies.get(query).cloned()
    }

    /// Keeps the staff list page for `query` rendered from chats at these versions, unless a
    /// chat changed after `ticket`.
    pub fn install_staff_list(
        &self,
        ticket: Ticket,
        query: &str,
        versions: HashMap<ChatId, u64>,
        body: B,
    ) -> B {
        let mut inner = self.lock();
        if inner.list.changed <= ticket.0 {
            if inner.list.bodies.len() >= STAFF_PAGES {
                inner.list.bodies.clear();
            }
            inner.list.bodies.insert(query.to_owned(), body.clone());
            inner.list.versions.extend(versions);
        }
        body
    }

    /// Looks for writes made by other instances since the last check and drops what they made
    /// stale. One read of the changed chats and one count; the cached ids are looked up only
    /// when the count moved.
    pub async fn refresh(
        &self,
        store: &impl ChatChanges,
        started: DateTime<Utc>,
    ) -> anyhow::Result<()> {
        let since = {
            let inner = self.lock();
            inner.checked_at - chrono::Duration::from_std(OVERLAP)?
        };
        let changes = store.chats_changed_since(since).await?;
        let count = store.chat_count().await?;
        let count_moved = self.lock().chat_count != Some(count);
        let gone: Vec<ChatId> = if count_moved {
            let known: Vec<ChatId> = self.lock().chats.keys().copied().collect();
            let existing: HashSet<ChatId> =
                store.existing_chats(&known).await?.into_iter().collect();
            known
                .into_iter()
                .filter(|id| !existing.contains(id))
                .collect()
        } else {
            vec![]
        };
        let stale = self.stale(&changes);
        for id in stale.chats.iter().chain(&gone) {
            self.changed(*id);
        }
        let mut inner = self.lock();
        if stale.list || count_moved {
            let epoch = self.epoch.fetch_add(1, Ordering::SeqCst) + 1;
            inner.list.drop_pages(epoch);
        }
        for id in &gone {
            inner.chats.remove(id);
        }
        inner.chat_count = Some(count);
        inner.checked_at = started;
        inner
            .chats
            .retain(|_, entry| entry.used.elapsed() < IDLE_ENTRY);
        Ok(())
    }

    /// Which cached bodies the database's versions make stale.
    fn stale(&self, changes: &[ChatChange]) -> Stale {
        let inner = self.lock();
        let mut stale = Stale::default();
        for change in changes {
            if let Some(entry) = inner.chats.get(&change.id) {
                if !entry.bodies.is_empty() && entry.version != Some(change.version) {
                    stale.chats.push(change.id);
                }
            }
            if change.status != ChatStatus::Ai
                && inner.list.versions.get(&change.id) != Some(&change.version)
                && !inner.list.bodies.is_empty()
            {
                stale.list = true;
            }
        }
        stale
    }

    /// How many chats have an entry (for tests and metrics).
    pub fn len(&self) -> usize {
        self.lock().chats.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[derive(Debug, Default)]
struct Stale {
    chats: Vec<ChatId>,
    list: bool,
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    type Versions = ChatVersions<Vec<u8>>;

    fn session(s: &str) -> SessionId {
        SessionId::parse(s).unwrap()
    }

    #[test]
    fn a_rendered_body_answers_the_next_poll_and_other_sessions_get_not_owner() {
        let versions = Versions::new(Utc::now());
        let id = ChatId::random();
        let mine = session("session-mine");
        assert!(matches!(
            versions.lookup(id, Some(&mine), View::Status),
            Lookup::Miss
        ));
        let ticket = versions.ticket();
        versions.install(id, &mine, 3, ticket, View::Status, b"{}".to_vec());
        assert!(matches!(
            versions.lookup(id, Some(&mine), View::Status),
            Lookup::Hit(_)
        ));
        assert!(matches!(
            versions.lookup(id, Some(&session("session-other")), View::Status),
            Lookup::NotOwner
        ));
        assert!(matches!(
            versions.lookup(id, None, View::Status),
            Lookup::Hit(_)
        ));
    }

    #[test]
    fn a_write_drops_the_bodies_and_a_read_older_than_it_is_not_installed() {
        let versions = Versions::new(Utc::now());
        let id = ChatId::random();
        let mine = session("session-mine");
        let before_write = versions.ticket();
        versions.changed(id);
        versions.install(id, &mine, 1, before_write, View::History, b"old".to_vec());
        assert!(matches!(
            versions.lookup(id, Some(&mine), View::History),
            Lookup::Miss
        ));
        let after = versions.ticket();
        versions.install(id, &mine, 2, after, View::History, b"new".to_vec());
        match versions.lookup(id, Some(&mine), View::History) {
            Lookup::Hit(cached) => assert_eq!(&cached[..], b"new"),
            other => panic!("{other:?}"),
        }
        versions.changed(id);
        assert!(matches!(
            versions.lookup(id, Some(&mine), View::History),
            Lookup::Miss
        ));
    }

    #[test]
    fn the_staff_list_is_dropped_by_any_chat_write() {
        let versions = Versions::new(Utc::now());
        let ticket = versions.ticket();
        versions.install_staff_list(ticket, "open", HashMap::new(), b"[]".to_vec());
        versions.install_staff_list(ticket, "closed", HashMap::new(), b"[]".to_vec());
        assert!(versions.staff_list("open").is_some());
        assert!(versions.staff_list("closed").is_some());
        assert!(
            versions.staff_list("all").is_none(),
            "each page has its own body"
        );
        versions.changed(ChatId::random());
        assert!(versions.staff_list("open").is_none());
        assert!(versions.staff_list("closed").is_none());
        versions.install_staff_list(ticket, "open", HashMap::new(), b"[old]".to_vec());
        assert!(
            versions.staff_list("open").is_none(),
            "read before the write"
        );
    }

    #[test]
    fn purged_chats_are_forgotten_with_the_staff_pages_and_no_entry_is_made_for_others() {
        let versions = Versions::new(Utc::now());
        let id = ChatId::random();
        let mine = session("session-mine");
        let ticket = versions.ticket();
        versions.install(id, &mine, 1, ticket, View::Status, b"{}".to_vec());
        versions.install_staff_list(ticket, "open", HashMap::new(), b"[]".to_vec());
        versions.forget(&[id, ChatId::random(), ChatId::random()]);
        assert!(matches!(
            versions.lookup(id, Some(&mine), View::Status),
            Lookup::Miss
        ));
        assert!(versions.staff_list("open").is_none());
        assert!(versions.is_empty());
    }

    #[test]
    fn another_instances_write_shows_as_a_version_change() {
        let versions = Versions::new(Utc::now());
        let id = ChatId::random();
        let mine = session("session-mine");
        let ticket = versions.ticket();
        versions.install(id, &mine, 4, ticket, View::Status, b"{}".to_vec());
        let mut list = HashMap::new();
        list.insert(id, 4);
        versions.install_staff_list(ticket, "open", list, b"[]".to_vec());
        let same = ChatChange {
            id,
            version: 4,
            status: ChatStatus::Pending,
        };
        let stale = versions.stale(std::slice::from_ref(&same));
        assert!(stale.chats.is_empty() && !stale.list, "our own write");
        let moved = ChatChange { version: 5, ..same };
        let stale = versions.stale(&[moved]);
        assert_eq!(stale.chats, vec![id]);
        assert!(stale.list);
    }

    #[tokio::test]
    async fn a_refresh_drops_what_other_instances_changed_and_forgets_deleted_chats() {
        let versions = Versions::new(Utc::now());
        let (moved, kept, deleted) = (ChatId::random(), ChatId::random(), ChatId::random());
        let mine = session("session-mine");
        let mut database = crate::ports::MockChatChanges::new();
        database.expect_chats_changed_since().returning(move |_| {
            let change = |id, version| ChatChange {
                id,
                version,
                status: ChatStatus::Connected,
            };
            Box::pin(async move { Ok(vec![change(moved, 2), change(kept, 1)]) })
        });
        database
            .expect_chat_count()
            .times(1)
            .returning(|| Box::pin(async { Ok(2) }));
        database
            .expect_existing_chats()
            .times(1)
            .returning(move |_| Box::pin(async move { Ok(vec![moved, kept]) }));
        let ticket = versions.ticket();
        for id in [moved, kept, deleted] {
            versions.install(id, &mine, 1, ticket, View::Status, b"{}".to_vec());
        }

        versions.refresh(&database, Utc::now()).await.unwrap();

        assert!(matches!(
            versions.lookup(moved, Some(&mine), View::Status),
            Lookup::Miss
        ));
        assert!(matches!(
            versions.lookup(kept, Some(&mine), View::Status),
            Lookup::Hit(_)
        ));
        assert!(matches!(
            versions.lookup(deleted, Some(&mine), View::Status),
            Lookup::Miss
        ));
        assert_eq!(versions.len(), 2, "the deleted chat's entry is gone");
    }
}
