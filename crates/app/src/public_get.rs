//! The storefront's product list (`GET /api/products`) is polled every few seconds by every open
//! tab and needs no session, no Origin check and no response compression (its bodies come
//! pre-compressed from the snapshot). [`SkipForProductList`] wraps such a middleware so that
//! this one request goes straight to the inner service and everything else passes through it.

use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll};

use actix_web::{
    body::{BoxBody, MessageBody},
    dev::{Service, ServiceRequest, ServiceResponse, Transform},
    http::Method,
    Error,
};
use futures::future::{Either, MapOk, TryFutureExt};

/// The one public GET that skips the wrapped middleware.
pub const PRODUCT_LIST_PATH: &str = "/api/products";

/// Whether a request is the storefront's product-list poll.
pub fn is_product_list(request: &ServiceRequest) -> bool {
    request.method() == Method::GET && request.path() == PRODUCT_LIST_PATH
}

/// Wraps a middleware `T` so that [`is_product_list`] requests bypass it.
pub struct SkipForProductList<T>(pub T);

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

impl<S, B, T, B2> Transform<S, ServiceRequest> for SkipForProductList<T>
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
        let bypass = Rc::new(service);
        let wrapped = self.0.new_transform(Shared(Rc::clone(&bypass)));
        Box::pin(async move {
            Ok(SkipService {
                bypass,
                wrapped: wrapped.await?,
            })
        })
    }
}

pub struct SkipService<S, W> {
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
        if is_product_list(&request) {
            let boxing: Boxing<B> = ServiceResponse::map_into_boxed_body;
            Either::Left(self.bypass.call(request).map_ok(boxing))
        } else {
            let boxing: Boxing<B2> = ServiceResponse::map_into_boxed_body;
            Either::Right(self.wrapped.call(request).map_ok(boxing))
        }
    }
}
