//! Self-play into shards: the stage of the generation loop, also the `selfplay` and `bench`
//! commands' work.

use std::sync::atomic::AtomicBool;

use games::{State, Variant};
use records::ShardPaths;
use selfplay::generation::{Generation, play_generation};
use selfplay::{PlayedGame, SelfPlayStats, ShardWriter};

use super::error::RunError;
use crate::RunConfig;
use crate::evaluators::EvaluatorFactory;

/// Plays games `ids` of the configured variant `V` with evaluators from `factory` and writes
/// them with `writer` (the last, partial shard included): a generation's self-play with every
/// `[selfplay]` hook ([`selfplay::generation`]) at the writer's generation. Game `id` is
/// determined by `(seed, id)`, so a session that plays only the ids missing from a folder
/// completes it as if it had never stopped. `stop` ends the session early (games in flight
/// finish and are written); `on_progress` gets the running totals after every game or batch;
/// `on_shard` gets every full shard once it is written (the last, partial one excepted), and an
/// error it returns ends the session.
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
) -> Result<SelfPlayStats, RunError> {
    let generation = Generation {
        selfplay: &config.selfplay,
        mcts: &config.mcts,
        options: config.game.rule_options(),
        generation: writer.generation(),
        seed,
        stop,
    };
    // The hook's error is kept whole; the driver only carries its message.
    let mut failed = None;
    let push = |g: &PlayedGame, stats: &SelfPlayStats| -> Result<(), String> {
        let Some(shard) = writer.push(g, stats).map_err(|e| e.to_string())? else {
            return Ok(());
        };
        on_shard(&shard).map_err(|e| {
            let message = e.to_string();
            failed = Some(e);
            message
        })
    };
    let make_net = || factory.make::<State<V>>(config.selfplay.draw_score);
    let played = play_generation::<V>(&generation, ids, &make_net, push, on_progress);
    if let Some(e) = failed {
        return Err(e);
    }
    let stats = played?;
    writer.flush()?;
    Ok(stats)
}
