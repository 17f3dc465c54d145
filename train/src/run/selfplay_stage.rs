//! Self-play into shards: the stage of the generation loop, also the `selfplay` and `bench`
//! commands' work.

use std::sync::atomic::AtomicBool;

use games::{Encode, State, Variant};
use selfplay::driver::{Session, play};
use selfplay::{HeuristicMix, SelfPlayStats, ShardPaths, ShardWriter};

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
/// into their leaf values at the weight of the writer's generation.
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
    let session = Session {
        config: &config.selfplay,
        mcts: &config.mcts,
        game_ids: ids,
        seed,
        start: &start,
        stop,
    };
    let leaf = config.selfplay.leaf_heuristic;
    let heuristic = leaf.weight_at(writer.generation());
    let make_evaluator = |_| -> BoxedEvaluator<State<V>> {
        let net = factory.make::<State<V>>(config.selfplay.draw_score);
        if heuristic <= 0.0 {
            return net;
        }
        Box::new(HeuristicMix::<V, _>::new(net, heuristic, leaf.judge()))
    };
    // The hook's error is kept whole; the driver only carries its message.
    let mut failed = None;
    let played = play(
        &session,
        &make_evaluator,
        |g, stats| {
            let Some(shard) = writer.push(&g, stats).map_err(|e| e.to_string())? else {
                return Ok(());
            };
            on_shard(&shard).map_err(|e| {
                let message = e.to_string();
                failed = Some(e);
                message
            })
        },
        on_progress,
    );
    if let Some(e) = failed {
        return Err(e);
    }
    let stats = played?;
    writer.flush()?;
    Ok(stats)
}
