//! The server's routes (docs/board.md, "The HTTP interface") and what they share: the models,
//! the run's records, the page and the searches' turn-taking.

use std::convert::Infallible;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::{DefaultBodyLimit, Path, State as Shared};
use axum::http::{StatusCode, Uri, header};
use axum::response::{IntoResponse, Json, Response};
use axum::routing::{get, post};
use games::{CamelotRules, Game, TriCamelotRules, VariantKind};
use search::PlaySearch;
use serde::{Deserialize, Serialize};
use tokio::sync::Semaphore;
use train::run_data::games::GamesCache;

use crate::assets::Assets;
use crate::error::{ServeError, error_body};
use crate::extract::{ApiJson, ApiQuery};
use crate::lines;
use crate::replay::{CollectionView, GameSummary, ReplayView, RunRecords};
use crate::run_figures::{FiguresView, all_figures};
use crate::search::Models;
use crate::view::{AnalysisView, GameView, StateView, parse_game, parse_state};

/// The largest request body accepted: a position string and a few fields need far less.
pub const MAX_BODY: usize = 64 * 1024;

/// How often a running analysis reports.
pub const ANALYSIS_EVERY: Duration = Duration::from_millis(250);

/// What the server is started with.
#[derive(Clone, Debug)]
pub struct Options {
    /// Checkpoint folders, at most one per game.
    pub models: Vec<PathBuf>,
    /// A run folder whose records the Replay view lists.
    pub run: Option<PathBuf>,
    /// Folders of shards outside a run (`arena --out DIR`), listed too.
    pub games: Vec<PathBuf>,
    /// How the model searches.
    pub play: PlaySearch,
    /// The most simulations one request may ask for.
    pub max_sims: u32,
    /// Searches that may run at once (the others wait their turn).
    pub searches: usize,
    /// Serve the page from this folder instead of the built-in copy.
    pub assets: Option<PathBuf>,
    /// Runs whose charts the Run view draws over the served run's.
    pub compare: Vec<PathBuf>,
}

/// The server's shared state; cheap to clone.
#[derive(Clone)]
pub struct App {
    inner: Arc<Inner>,
}

struct Inner {
    models: Models,
    run: Option<RunRecords>,
    assets: Assets,
    max_sims: u32,
    permits: Arc<Semaphore>,
    /// The runs the Run view charts: the served run first, then `--compare`'s.
    chart_runs: Vec<PathBuf>,
    /// Their game records' summaries, kept between the page's polls.
    chart_games: Arc<std::sync::Mutex<GamesCache>>,
}

impl App {
    /// Loads the models and opens the run; the error says which one is unusable.
    pub fn new(options: Options) -> Result<App, ServeError> {
        let models = Models::load(&options.models, options.play)?;
        let run = RunRecords::open(options.run.as_deref(), &options.games)?;
        for dir in &options.compare {
            if !dir.join(train::run::CONFIG_FILE).is_file() {
                return Err(ServeError::Startup(format!(
                    "--compare {}: not a run directory (no config.toml)",
                    dir.display()
                )));
            }
        }
        if options.run.is_none() && !options.compare.is_empty() {
            return Err(ServeError::Startup(
                "--compare needs --run: the run to compare with".into(),
            ));
        }
        let chart_runs = options.run.iter().chain(&options.compare).cloned().collect();
        Ok(App {
            inner: Arc::new(Inner {
                models,
                run,
                assets: Assets::new(options.assets),
                max_sims: options.max_sims,
                permits: Arc::new(Semaphore::new(options.searches.max(1))),
                chart_runs,
                chart_games: Arc::default(),
            }),
        })
    }

    /// The routes of the page and the API.
    pub fn router(self) -> Router {
        Router::new()
            .route("/", get(index))
            .route("/assets/{file}", get(asset))
            .route("/api/info", get(info))
            .route("/api/state", post(state))
            .route("/api/play", post(play))
            .route("/api/reply", post(reply))
            .route("/api/analyse", post(analyse))
            .route("/api/line", post(lines::line))
            .route("/api/game/read", post(lines::read))
            .route("/api/game/write", post(lines::write))
            .route("/api/run", get(run))
            .route("/api/run/games", get(run_games))
            .route("/api/run/game", get(run_game))
            .route("/api/run/figures", get(run_figures))
            .fallback(not_found)
            .method_not_allowed_fallback(method_not_allowed)
            .layer(DefaultBodyLimit::max(MAX_BODY))
            .with_state(self)
    }

    fn check_sims(&self, sims: u64) -> Result<u32, ServeError> {
        let max = self.inner.max_sims;
        if sims == 0 || sims > u64::from(max) {
            return Err(ServeError::BadSims { got: sims, max });
        }
        Ok(sims as u32)
    }

    /// Runs `job` on a blocking thread once a search permit is free (in the order asked).
    async fn search<T: Send + 'static>(
        &self,
        job: impl FnOnce(&Models) -> Result<T, ServeError> + Send + 'static,
    ) -> Result<T, ServeError> {
        let permit = self.inner.permits.clone().acquire_owned().await.expect("never closed");
        let app = self.clone();
        tokio::task::spawn_blocking(move || {
            let _permit = permit;
            job(&app.inner.models)
        })
        .await
        .map_err(|e| ServeError::Search(format!("the search stopped: {e}")))?
    }

    /// Runs `job` (reading records) on a blocking thread.
    async fn read<T: Send + 'static>(
        &self,
        job: impl FnOnce(&RunRecords) -> Result<T, ServeError> + Send + 'static,
    ) -> Result<T, ServeError> {
        if self.inner.run.is_none() {
            return Err(ServeError::NoRun);
        }
        let app = self.clone();
        tokio::task::spawn_blocking(move || job(app.inner.run.as_ref().expect("checked")))
            .await
            .map_err(|e| ServeError::Records(format!("the read stopped: {e}")))?
    }
}

async fn index(Shared(app): Shared<App>) -> Response {
    app.inner.assets.serve("index.html")
}

async fn asset(Shared(app): Shared<App>, Path(file): Path<String>) -> Response {
    app.inner.assets.serve(&file)
}

async fn not_found(uri: Uri) -> Response {
    error_body(StatusCode::NOT_FOUND, format!("no such page: {}", uri.path()))
}

async fn method_not_allowed(uri: Uri) -> Response {
    error_body(StatusCode::METHOD_NOT_ALLOWED, format!("{} does not take that method", uri.path()))
}

#[derive(Serialize)]
struct Info {
    games: Vec<GameView>,
    run: Option<RunName>,
    /// The most simulations a request may ask for.
    max_sims: u32,
}

#[derive(Serialize)]
struct RunName {
    name: String,
}

async fn info(Shared(app): Shared<App>) -> Json<Info> {
    let models = &app.inner.models;
    Json(Info {
        games: vec![
            GameView::of::<CamelotRules>(models.name(VariantKind::Camelot)),
            GameView::of::<TriCamelotRules>(models.name(VariantKind::Tricamelot)),
        ],
        run: app.inner.run.as_ref().map(|r| RunName { name: r.name() }),
        max_sims: app.inner.max_sims,
    })
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct StateRequest {
    game: String,
    position: String,
}

async fn state(ApiJson(req): ApiJson<StateRequest>) -> Result<Json<StateView>, ServeError> {
    let kind = parse_game(&req.game)?;
    games::with_variant!(kind, V => Ok(Json(StateView::of(&parse_state::<V>(&req.position)?))))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PlayRequest {
    game: String,
    position: String,
    /// `F6>F8` or `end`.
    action: String,
}

#[derive(Serialize)]
struct Played {
    state: StateView,
    /// The move this action completed, if it completed one.
    completed: Option<String>,
}

async fn play(ApiJson(req): ApiJson<PlayRequest>) -> Result<Json<Played>, ServeError> {
    let kind = parse_game(&req.game)?;
    games::with_variant!(kind, V => {
        let mut state = parse_state::<V>(&req.position)?;
        let action = state.parse_action(&req.action).map_err(|e| ServeError::IllegalAction {
            action: req.action.clone(),
            why: e.to_string(),
        })?;
        state.play(action);
        Ok(Json(Played { completed: state.last_move(), state: StateView::of(&state) }))
    })
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SearchRequest {
    game: String,
    position: String,
    sims: u64,
}

#[derive(Serialize)]
struct Reply {
    #[serde(rename = "move")]
    chosen: String,
    state: StateView,
    /// What the first searched leg found; `None` when every leg was forced.
    analysis: Option<AnalysisView>,
}

async fn reply(
    Shared(app): Shared<App>,
    ApiJson(req): ApiJson<SearchRequest>,
) -> Result<Json<Reply>, ServeError> {
    let kind = parse_game(&req.game)?;
    let sims = app.check_sims(req.sims)?;
    games::with_variant!(kind, V => {
        let state = parse_state::<V>(&req.position)?;
        if state.outcome().is_some() {
            return Err(ServeError::GameOver);
        }
        let root = state.clone();
        let (chosen, analysis) = app.search(move |m| m.reply::<V>(&root, sims)).await?;
        let next = state.after_move(&chosen).map_err(|e| {
            ServeError::Search(format!("the rules refuse the model's move {chosen}: {e}"))
        })?;
        Ok(Json(Reply { chosen, state: StateView::of(&next), analysis }))
    })
}

/// A line of the analysis stream.
fn json_line(value: &impl Serialize) -> Bytes {
    let mut line = serde_json::to_vec(value).expect("plain data serializes");
    line.push(b'\n');
    Bytes::from(line)
}

async fn analyse(
    Shared(app): Shared<App>,
    ApiJson(req): ApiJson<SearchRequest>,
) -> Result<Response, ServeError> {
    let kind = parse_game(&req.game)?;
    let sims = app.check_sims(req.sims)?;
    let (tx, rx) = tokio::sync::mpsc::channel::<Bytes>(4);
    games::with_variant!(kind, V => {
        let state = parse_state::<V>(&req.position)?;
        if state.outcome().is_some() {
            return Err(ServeError::GameOver);
        }
        tokio::spawn(async move {
            let out = tx.clone();
            let job = move |models: &Models| {
                // A client that left while this search waited its turn gets none.
                if out.is_closed() {
                    return Ok(());
                }
                models.analyse::<V>(&state, sims, ANALYSIS_EVERY, |view| {
                    out.blocking_send(json_line(&view)).is_ok()
                })
            };
            if let Err(e) = app.search(job).await {
                let _ = tx.send(json_line(&serde_json::json!({ "error": e.to_string() }))).await;
            }
        });
    });
    // The stream ends when the search drops its sender; a client that closes the connection
    // drops the receiver, and the search stops at its next report.
    let lines = futures_util::stream::unfold(rx, |mut rx| async move {
        rx.recv().await.map(|line| (Ok::<_, Infallible>(line), rx))
    });
    Ok(([(header::CONTENT_TYPE, "application/x-ndjson")], Body::from_stream(lines)).into_response())
}

#[derive(Serialize)]
struct RunView {
    name: String,
    collections: Vec<CollectionView>,
}

async fn run(Shared(app): Shared<App>) -> Result<Json<RunView>, ServeError> {
    app.read(|run| Ok(RunView { name: run.name(), collections: run.collections()? }))
        .await
        .map(Json)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CollectionQuery {
    collection: String,
}

#[derive(Serialize)]
struct GameList {
    games: Vec<GameSummary>,
}

async fn run_games(
    Shared(app): Shared<App>,
    ApiQuery(q): ApiQuery<CollectionQuery>,
) -> Result<Json<GameList>, ServeError> {
    app.read(move |run| Ok(GameList { games: run.games(&q.collection)? })).await.map(Json)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct GameQuery {
    collection: String,
    shard: u32,
    game_id: u64,
}

async fn run_game(
    Shared(app): Shared<App>,
    ApiQuery(q): ApiQuery<GameQuery>,
) -> Result<Json<ReplayView>, ServeError> {
    app.read(move |run| run.game(&q.collection, q.shard, q.game_id)).await.map(Json)
}

async fn run_figures(Shared(app): Shared<App>) -> Result<Json<FiguresView>, ServeError> {
    if app.inner.chart_runs.is_empty() {
        return Err(ServeError::NoRun);
    }
    let dirs = app.inner.chart_runs.clone();
    let cache = app.inner.chart_games.clone();
    tokio::task::spawn_blocking(move || all_figures(&dirs, &cache))
        .await
        .map_err(|e| ServeError::Records(format!("the read stopped: {e}")))?
        .map(Json)
}
