//! `serve`: the board in the browser (docs/board.md). Loads the models, opens the run, binds
//! the address and serves until stopped; the first line printed is the address to open.

use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;

use anyhow::{Context, Result};
use clap::Args;
use web::{App, Options};

use crate::input::{BadInput, play_search};

#[derive(Args, Debug)]
pub struct ServeArgs {
    /// A checkpoint folder (`models/gen-NNNN`); give one per game. A game without one is
    /// searched with uniform priors.
    #[arg(long)]
    pub model: Vec<PathBuf>,
    /// A run folder: the Replay view lists its recorded games; without --model, its newest
    /// checkpoint is the model.
    #[arg(long)]
    pub run: Option<PathBuf>,
    /// A folder of recorded games outside a run (what `arena --out DIR` writes); repeat it for
    /// more. The Replay view lists each beside the run's.
    #[arg(long)]
    pub games: Vec<PathBuf>,
    /// A run configuration (TOML) whose [play] section sets how the model searches; its other
    /// sections are not used. Without it, the [play] defaults.
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// The address to listen on (loopback unless given).
    #[arg(long, default_value = "127.0.0.1")]
    pub host: IpAddr,
    /// The port; 0 picks a free one (the line printed says which).
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// The most simulations one request may ask for.
    #[arg(long, default_value_t = 100_000, value_parser = clap::value_parser!(u32).range(1..=i64::from(search::mcts::MAX_SIMULATIONS)))]
    pub max_sims: u32,
    /// Serve the page's files from this folder instead of the copy built into the binary (for
    /// working on the page without rebuilding).
    #[arg(long)]
    pub assets: Option<PathBuf>,
    /// Another run whose charts the Run view draws over --run's (dashed); repeat it for more.
    #[arg(long)]
    pub compare: Vec<PathBuf>,
}

pub fn run(args: ServeArgs) -> Result<()> {
    let mut models = args.model.clone();
    if models.is_empty()
        && let Some(run) = &args.run
    {
        let newest = train::newest_checkpoint(&run.join("models"))
            .with_context(|| format!("reading {}", run.join("models").display()))?;
        models.extend(newest.map(|(_, dir)| dir));
    }
    if let Some(dir) = &args.assets
        && !dir.join("index.html").is_file()
    {
        return Err(BadInput(format!("--assets {}: no index.html there", dir.display())).into());
    }
    let searches = std::thread::available_parallelism().map_or(1, |n| n.get());
    let options = Options {
        models,
        run: args.run.clone(),
        games: args.games.clone(),
        play: play_search(args.config.as_deref())?,
        max_sims: args.max_sims,
        searches,
        assets: args.assets.clone(),
        compare: args.compare.clone(),
    };
    let app = App::new(options).map_err(|e| BadInput(e.to_string()))?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("starting the server's runtime")?;
    runtime.block_on(async {
        let address = SocketAddr::new(args.host, args.port);
        let listener = tokio::net::TcpListener::bind(address)
            .await
            .map_err(|e| BadInput(format!("cannot listen on {address}: {e}")))?;
        let bound = listener.local_addr()?;
        outln!("serving http://{bound} (Ctrl-C stops)")?;
        web::serve(listener, app).await.context("serving")
    })
}
