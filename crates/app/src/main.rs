use garden_app::{telemetry, Application, Settings};

#[actix_web::main]
async fn main() -> anyhow::Result<()> {
    let settings = Settings::load()?;
    telemetry::init(settings.environment);
    let application = Application::build(settings).await?;
    application.run_until_stopped().await?;
    Ok(())
}
