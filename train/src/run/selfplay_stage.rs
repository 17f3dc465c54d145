//! Self-play into shards: the stage of the generation loop, also the `selfplay` and `bench`
//! commands' work.

use std::sync::atomic::AtomicBool;

use games::{Encode, State, Variant};
use selfplay::driver::{Session, play};
use selfplay::{SelfPlayStats, ShardWriter};

use super::error::RunError;
use crate::RunConfig;
use crate::evaluators::EvaluatorFactory;

/// Plays games `ids` of the configured variant `V` with evaluators from `factory` and writes
/// them with `writer` (the last, partial shard included). Game `id` is determined by
/// `(seed, id)`, so a session that plays only the ids missing from a folder completes it as if
/// it had never stopped. `stop` ends the session early (games in flight finish and are
/// written); `on_progress` gets the running totals after every game or batch.
pub fn play_games<V: Variant>(
    config: &RunConfig,
    factory: &EvaluatorFactory,
    ids: Vec<u64>,
    seed: u64,
    writer: &mut ShardWriter,
    stop: Option<&AtomicBool>,
    on_progress: impl FnMut(&SelfPlayStats),
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
    let stats = play(
        &session,
        &|_| factory.make::<State<V>>(config.selfplay.draw_score),
        |g, stats| writer.push(&g, stats).map(|_| ()).map_err(|e| e.to_string()),
        on_progress,
    )?;
    writer.flush()?;
    Ok(stats)
}
