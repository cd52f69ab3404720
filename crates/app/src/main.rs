use clap::Parser;
use garden_app::{openapi_json, run_cli, telemetry, Application, Cli, Command, Settings};

#[actix_web::main]
async fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    if let Some(Command::Openapi) = cli.command {
        // No config, no database, no log lines: only the document on standard output.
        println!("{}", openapi_json());
        return Ok(());
    }
    let mut settings = Settings::load()?;
    // May start the binary again (same process) with GLIBC_TUNABLES set: before anything else.
    garden_app::malloc::pin_mmap_threshold(settings.server.malloc_mmap_threshold);
    telemetry::init(settings.environment);
    if let Some(command) = cli.command {
        // No listener here: an unset public_url names the configured port.
        settings.resolve_public_url(settings.server.port)?;
        let report = run_cli(command, settings, std::io::stdin().lock()).await?;
        println!("{report}");
        return Ok(());
    }
    let application = match Application::build(settings).await {
        Ok(application) => application,
        Err(error) => {
            // one line naming what stopped the start (the setting to look at), then exit
            tracing::error!("Garden Shop did not start: {error:#}");
            return Err(error);
        }
    };
    application.run_until_stopped().await?;
    Ok(())
}
