use std::future::Future;

use crate::models::NewPushEvent;

/// The port: publishing an event every instance (this one included) hears.
pub trait EventBus: Send + Sync + 'static {
    fn publish(&self, event: NewPushEvent) -> impl Future<Output = ()> + Send;
}
