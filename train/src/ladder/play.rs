//! Playing a model's ladder ([`run_ladder`]) and choosing which model plays self-play
//! ([`self_play_model`]); see the [module docs](super).

use std::path::{Path, PathBuf};

use games::{Encode, State, Variant};
use selfplay::DrawScore;
use selfplay::arena::{
    ArenaPlayer, Elo, MatchConfig, MatchReport, PlayerSpec, play_match, write_games,
};

use super::{Gating, LadderResult, Versus};
use crate::evaluators::arena_loader;
use crate::run::RunError;
use crate::run::error::io;
use crate::{RunConfig, generation_dir_name, list_generation_dirs};

/// The model that plays self-play at generation `g`: the newest `gen-k`, `k <= g`, that is
/// promoted (`gen-0000`, models without a ladder result, and every model without gating are).
pub fn self_play_model(models: &Path, g: u32) -> Result<(u32, PathBuf), RunError> {
    let dirs = list_generation_dirs(models).map_err(io("reading", models))?;
    for (k, dir) in dirs.into_iter().rev().filter(|(k, _)| *k <= g) {
        if k == 0 || LadderResult::read(&dir)?.is_none_or(|r| r.promoted) {
            return Ok((k, dir));
        }
    }
    Err(RunError::NoModel { models: models.to_path_buf(), generation: g })
}

/// The opponent of `gen-g`: the newest measured and promoted model before it (or `gen-0000`),
/// with its rating.
fn opponent(models: &Path, g: u32) -> Result<(u32, f64), RunError> {
    for k in (1..g).rev() {
        if let Some(r) = LadderResult::read(&models.join(generation_dir_name(k)))?
            && r.promoted
        {
            return Ok((k, r.rating));
        }
    }
    Ok((0, 0.0))
}

/// Plays the ladder of `gen-g` and writes its result; see the [module docs](super).
/// `on_game` is called after every game (`2 * ladder.games` in all).
pub fn run_ladder<V: Variant>(
    run_dir: &Path,
    config: &RunConfig,
    g: u32,
    mut on_game: impl FnMut(),
) -> Result<LadderResult, RunError>
where
    State<V>: Encode,
{
    let ladder = &config.ladder;
    let models = run_dir.join("models");
    let model_dir = models.join(generation_dir_name(g));
    let (opp, opp_rating) = opponent(&models, g)?;
    let opp_dir = models.join(generation_dir_name(opp));
    let sims = ladder.simulations;
    // The ladder measures what a model earns, so its searches score draws at the fair share.
    let draw = DrawScore::Share;
    let new = PlayerSpec::Checkpoint { dir: model_dir.clone(), sims, draw };
    let old = PlayerSpec::Checkpoint { dir: opp_dir, sims, draw };
    let baseline = ladder.baseline_spec().map_err(RunError::Baseline)?;
    let games_dir = run_dir.join("ladder").join(generation_dir_name(g));
    if games_dir.exists() {
        // A ladder cut short is played again whole.
        std::fs::remove_dir_all(&games_dir).map_err(io("removing", &games_dir))?;
    }
    let match_config = MatchConfig {
        games: u64::from(ladder.games),
        seed: config.run.seed ^ (u64::from(g) << 20) ^ 0x1ADD,
        opening_moves: ladder.opening_moves,
        max_moves: ladder.max_moves,
        games_in_flight: (ladder.games as usize).clamp(1, 64),
        mcts: config.mcts.clone(),
        rollout_moves: ladder.max_moves as usize,
        options: config.game.rule_options(),
    };
    let mut load = arena_loader::<V>(config.net.device, config.selfplay.eval_cache);
    let mut play = |others: &PlayerSpec| -> Result<Versus, RunError> {
        let specs: Vec<PlayerSpec> = std::iter::once(new.clone())
            .chain(std::iter::repeat_n(others.clone(), V::NUM_PLAYERS - 1))
            .collect();
        let mut players = specs
            .iter()
            .map(|s| ArenaPlayer::<V>::from_spec(s, &mut load))
            .collect::<Result<Vec<_>, _>>()?;
        let (games, _) = play_match(&mut players, &match_config, |_| on_game())?;
        let names: Vec<String> = specs.iter().map(PlayerSpec::short_name).collect();
        write_games(&games_dir, V::NAME, &names, &games)
            .map_err(|source| RunError::LadderGames { dir: games_dir.clone(), source })?;
        Ok(Versus::new(&games, &MatchReport::new(&names, V::PLAYER_NAMES, &games)))
    };
    let vs_opponent = play(&old)?;
    let vs_baseline = play(&baseline)?;
    let promoted = match ladder.gating {
        Gating::Off => true,
        Gating::Threshold { score } => vs_opponent.score >= score,
    };
    let n = f64::from(ladder.games.max(1));
    let clipped = vs_opponent.score.clamp(0.5 / n, 1.0 - 0.5 / n);
    let result = LadderResult {
        generation: g,
        opponent: opp,
        games: ladder.games,
        vs_opponent,
        baseline: baseline.short_name(),
        vs_baseline,
        promoted,
        rating: opp_rating + Elo::from_score(clipped).0 + 0.0,
    };
    result.write(&model_dir)?;
    Ok(result)
}
