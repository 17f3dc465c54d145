//! Self-play into shards: the stage of the generation loop, also the `selfplay` and `bench`
//! commands' work.

use classical::Guards;
use std::sync::atomic::AtomicBool;

use classical::HeuristicMix;
use games::{Encode, State, Variant};
use records::ShardPaths;
use search::mcts::RootFilter;
use selfplay::driver::{DriverError, RootFilterFactory, Session, SparringFactory, play};
use selfplay::teacher::play_teacher_games;
use selfplay::{PlayedGame, SelfPlayStats, ShardWriter};

use super::error::RunError;
use crate::RunConfig;
use crate::evaluators::{BoxedEvaluator, EvaluatorFactory};

/// Plays games `ids` of the configured variant `V` with evaluators from `factory` and writes
/// them with `writer` (the last, partial shard included). Game `id` is determined by
/// `(seed, id)`, so a session that plays only the ids missing from a folder completes it as if
/// it had never stopped. `stop` ends the session early (games in flight finish and are
/// written); `on_progress` gets the running totals after every game or batch; `on_shard` gets
/// every full shard once it is written (the last, partial one excepted), and an error it
/// returns ends the session. With `selfplay.leaf_heuristic` the searches mix the heuristic
/// into their leaf values at the weight of the writer's generation; with `selfplay.teacher` the
/// teacher plays its share of the ids (at the writer's generation) before the searches play the
/// rest; with the teacher's `label` share its targets are blended into the searches' policy
/// targets, and then with `selfplay.tactics_filter` those are filtered, before they are written
/// (both on the caller's thread); with `selfplay.root_filter` the searches' root priors
/// are (each game with its own filter); with the teacher's `spar` share it plays one seat of
/// that share of the searches' games.
#[allow(clippy::too_many_arguments)]
pub fn play_games<V: Variant>(
    config: &RunConfig,
    factory: &EvaluatorFactory,
    ids: Vec<u64>,
    seed: u64,
    writer: &mut ShardWriter,
    stop: Option<&AtomicBool>,
    on_progress: impl FnMut(&SelfPlayStats),
    mut on_shard: impl FnMut(&ShardPaths) -> Result<(), RunError>,
) -> Result<SelfPlayStats, RunError>
where
    State<V>: Encode,
{
    let options = config.game.rule_options();
    let start = move |_: u64| State::<V>::start_with(options);
    // The teacher's games first (a share of the ids, fading by generation), then the searches'.
    let (teacher, generation) = (config.selfplay.teacher, writer.generation());
    let (taught, ids): (Vec<u64>, Vec<u64>) =
        ids.into_iter().partition(|&id| teacher.plays(generation, seed, id));
    let mut failed = None;
    let mut push = |g: &PlayedGame, stats: &SelfPlayStats| -> Result<(), String> {
        let Some(shard) = writer.push(g, stats).map_err(|e| e.to_string())? else {
            return Ok(());
        };
        on_shard(&shard).map_err(|e| {
            let message = e.to_string();
            failed = Some(e);
            message
        })
    };
    let mut on_progress = on_progress;
    let taught = play_teacher_games::<V>(
        teacher,
        &config.selfplay,
        &taught,
        seed,
        &start,
        stop,
        |g, stats| {
            let pushed = push(&g, stats);
            on_progress(stats);
            pushed
        },
    );
    let taught = match taught {
        Ok(taught) => taught,
        Err(message) => return Err(failed.unwrap_or(DriverError::Handler(message).into())),
    };
    let make_root_filter = config
        .selfplay
        .root_filter
        .guards::<V>()
        .map(|make| move || -> Box<dyn RootFilter<State<V>>> { Box::new(make()) });
    let make_sparrer = teacher.sparrers::<V>(seed);
    let session = Session {
        config: &config.selfplay,
        mcts: &config.mcts,
        game_ids: ids,
        seed,
        start: &start,
        stop,
        root_filter: make_root_filter.as_ref().map(|make| make as &RootFilterFactory<_>),
        sparring: make_sparrer.as_ref().map(|make| make as &SparringFactory<_>),
    };
    let filter = config.selfplay.tactics_filter;
    let mut labels = teacher.labels::<V>(options);
    let leaf = config.selfplay.leaf_heuristic;
    let heuristic = leaf.weight_at(generation);
    let make_evaluator = |_| -> BoxedEvaluator<State<V>> {
        let net = factory.make::<State<V>>(config.selfplay.draw_score);
        if heuristic <= 0.0 {
            return net;
        }
        Box::new(HeuristicMix::<V, _>::new(net, heuristic, leaf.judge()))
    };
    // The hook's error is kept whole; the driver only carries its message. The totals count
    // the teacher's games too.
    let with_taught = |stats: &SelfPlayStats| {
        let mut total = taught.clone();
        total.merge(stats);
        total
    };
    let played = if session.game_ids.is_empty() {
        Ok(SelfPlayStats::default())
    } else {
        play(
            &session,
            &make_evaluator,
            |mut g, stats| {
                if let Some(labels) = labels.as_mut() {
                    labels.apply(&mut g);
                }
                selfplay::filter_targets::<V>(filter, &mut g, options);
                push(&g, &with_taught(stats))
            },
            |stats| on_progress(&with_taught(stats)),
        )
    };
    if let Some(e) = failed {
        return Err(e);
    }
    let stats = with_taught(&played?);
    writer.flush()?;
    Ok(stats)
}
