//! The storefront's product list (`GET /api/products`) is polled every few seconds by every open
//! tab and needs no session, no Origin check, no response compression (its bodies come
//! pre-compressed from the snapshot) and no request span (it sends no statement and logs
//! nothing; a span and its request id cost more than the answer itself).
//! [`ProductListLane`] answers it from the snapshot before the middleware inside it and the
//! router (with the same security headers every answer carries); [`SkipWhen`] with
//! [`is_product_list`] wraps a middleware outside the lane (the request span) so that this one
//! request passes it by.
//! The metrics middleware stays outside both: `/metrics` counts every poll.

use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll};

use actix_web::http::header::{HeaderName, HeaderValue};
use actix_web::web;
use actix_web::{
    body::{BoxBody, MessageBody},
    dev::{Service, ServiceRequest, ServiceResponse, Transform},
    http::Method,
    Error,
};
use futures::future::{ready, Either, MapOk, Ready, TryFutureExt};

use crate::routes::products;
use crate::snapshot::ProductSnapshot;

/// The one public GET that skips the wrapped middleware.
pub const PRODUCT_LIST_PATH: &str = "/api/products";

/// Whether a request is the storefront's product-list poll.
pub fn is_product_list(request: &ServiceRequest) -> bool {
    request.method() == Method::GET && request.path() == PRODUCT_LIST_PATH
}

/// The inner service, shared between the wrapped middleware and the bypass.
pub struct Shared<S>(Rc<S>);

impl<S, B> Service<ServiceRequest> for Shared<S>
where
    S: Service<ServiceRequest, Response = ServiceResponse<B>, Error = Error>,
{
    type Response = ServiceResponse<B>;
    type Error = Error;
    type Future = S::Future;

    fn poll_ready(&self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.0.poll_ready(cx)
    }

    fn call(&self, request: ServiceRequest) -> Self::Future {
        self.0.call(request)
    }
}

/// Wraps a middleware `T` so that the requests its function says yes to bypass it (the
/// session middleware and the requests that need no session: `auth::session::needs_no_session`;
/// the request span and log line and [`is_product_list`]).
pub struct SkipWhen<T> {
    skip: fn(&ServiceRequest) -> bool,
    middleware: T,
}

impl<T> SkipWhen<T> {
    pub fn new(skip: fn(&ServiceRequest) -> bool, middleware: T) -> Self {
        SkipWhen { skip, middleware }
    }
}

impl<S, B, T, B2> Transform<S, ServiceRequest> for SkipWhen<T>
where
    S: Service<ServiceRequest, Response = ServiceResponse<B>, Error = Error> + 'static,
    B: MessageBody + 'static,
    T: Transform<Shared<S>, ServiceRequest, Response = ServiceResponse<B2>, Error = Error>,
    T::Future: 'static,
    T::Transform: 'static,
    B2: MessageBody + 'static,
{
    type Response = ServiceResponse<BoxBody>;
    type Error = Error;
    type Transform = SkipService<S, T::Transform>;
    type InitError = T::InitError;
    type Future = Pin<Box<dyn Future<Output = Result<Self::Transform, Self::InitError>>>>;

    fn new_transform(&self, service: S) -> Self::Future {
        skipping(self.skip, &self.middleware, service)
    }
}

/// What building a [`SkipService`] answers.
type Building<S, W, E> = Pin<Box<dyn Future<Output = Result<SkipService<S, W>, E>>>>;

/// `middleware` around `service`, passed by for the requests `skip` says yes to.
fn skipping<S, T>(
    skip: fn(&ServiceRequest) -> bool,
    middleware: &T,
    service: S,
) -> Building<S, T::Transform, T::InitError>
where
    S: 'static,
    T: Transform<Shared<S>, ServiceRequest>,
    T::Future: 'static,
    T::Transform: 'static,
{
    let bypass = Rc::new(service);
    let wrapped = middleware.new_transform(Shared(Rc::clone(&bypass)));
    Box::pin(async move {
        Ok(SkipService {
            skip,
            bypass,
            wrapped: wrapped.await?,
        })
    })
}

pub struct SkipService<S, W> {
    skip: fn(&ServiceRequest) -> bool,
    bypass: Rc<S>,
    wrapped: W,
}

type Boxing<B> = fn(ServiceResponse<B>) -> ServiceResponse<BoxBody>;

impl<S, B, W, B2> Service<ServiceRequest> for SkipService<S, W>
where
    S: Service<ServiceRequest, Response = ServiceResponse<B>, Error = Error> + 'static,
    B: MessageBody + 'static,
    W: Service<ServiceRequest, Response = ServiceResponse<B2>, Error = Error>,
    B2: MessageBody + 'static,
{
    type Response = ServiceResponse<BoxBody>;
    type Error = Error;
    // Plain combinators: the bypass allocates nothing of its own.
    type Future = Either<MapOk<S::Future, Boxing<B>>, MapOk<W::Future, Boxing<B2>>>;

    fn poll_ready(&self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.wrapped.poll_ready(cx)
    }

    fn call(&self, request: ServiceRequest) -> Self::Future {
        if (self.skip)(&request) {
            let boxing: Boxing<B> = ServiceResponse::map_into_boxed_body;
            Either::Left(self.bypass.call(request).map_ok(boxing))
        } else {
            let boxing: Boxing<B2> = ServiceResponse::map_into_boxed_body;
            Either::Right(self.wrapped.call(request).map_ok(boxing))
        }
    }
}

/// Answers [`is_product_list`] requests itself, from the snapshot (`routes::products::answer`,
/// the same as the route's handler), with `headers` added (the security headers the
/// middleware it passes by would add); every other request goes on to the inner service.
pub struct ProductListLane {
    headers: Rc<[(HeaderName, HeaderValue)]>,
}

impl ProductListLane {
    pub fn new(headers: Vec<(HeaderName, HeaderValue)>) -> Self {
        ProductListLane {
            headers: headers.into(),
        }
    }
}

impl<S, B> Transform<S, ServiceRequest> for ProductListLane
where
    S: Service<ServiceRequest, Response = ServiceResponse<B>, Error = Error> + 'static,
    B: MessageBody + 'static,
{
    type Response = ServiceResponse<BoxBody>;
    type Error = Error;
    type Transform = LaneService<S>;
    type InitError = ();
    type Future = Ready<Result<Self::Transform, Self::InitError>>;

    fn new_transform(&self, service: S) -> Self::Future {
        ready(Ok(LaneService {
            inner: service,
            headers: Rc::clone(&self.headers),
        }))
    }
}

pub struct LaneService<S> {
    inner: S,
    headers: Rc<[(HeaderName, HeaderValue)]>,
}

impl<S, B> Service<ServiceRequest> for LaneService<S>
where
    S: Service<ServiceRequest, Response = ServiceResponse<B>, Error = Error>,
    B: MessageBody + 'static,
{
    type Response = ServiceResponse<BoxBody>;
    type Error = Error;
    type Future = Either<Ready<Result<Self::Response, Error>>, MapOk<S::Future, Boxing<B>>>;

    fn poll_ready(&self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&self, request: ServiceRequest) -> Self::Future {
        let snapshot = is_product_list(&request)
            .then(|| request.app_data::<web::Data<ProductSnapshot>>())
            .flatten();
        if let Some(snapshot) = snapshot {
            let mut response = products::answer(request.headers(), snapshot);
            let headers = response.headers_mut();
            for (name, value) in self.headers.iter() {
                headers.insert(name.clone(), value.clone());
            }
            return Either::Left(ready(Ok(request.into_response(response))));
        }
        let boxing: Boxing<B> = ServiceResponse::map_into_boxed_body;
        Either::Right(self.inner.call(request).map_ok(boxing))
    }
}
