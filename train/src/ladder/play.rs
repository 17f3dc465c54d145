//! Playing a model's ladder ([`run_ladder`]) and choosing which model plays self-play
//! ([`self_play_model`]); see the [module docs](super).

use std::path::{Path, PathBuf};

use games::{Variant, VariantKind};
use search::DrawScore;
use selfplay::arena::anchors::{AnchorTable, rated_games};
use selfplay::arena::{
    ArenaGame, ArenaPlayer, Elo, LeafValues, MatchConfig, MatchReport, PlayerSpec, fit, play_match,
    write_games,
};

use super::{Absolute, Baseline, Gating, LadderResult, Versus};
use crate::evaluators::arena_loader;
use crate::run::error::io;
use crate::run::{ModelFile, RunError};
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
/// with its rating and its absolute Elo (`gen-0000`: 0, the random network's level).
fn opponent(models: &Path, g: u32) -> Result<(u32, f64, Option<f64>), RunError> {
    for k in (1..g).rev() {
        if let Some(r) = LadderResult::read(&models.join(generation_dir_name(k)))?
            && r.promoted
        {
            return Ok((k, r.rating, r.absolute.map(|a| a.elo)));
        }
    }
    Ok((0, 0.0, Some(0.0)))
}

/// The anchor of `table` whose Elo is nearest `elo`.
pub fn nearest_anchor(table: &AnchorTable, elo: f64) -> PlayerSpec {
    let a = table
        .anchor
        .iter()
        .min_by(|x, y| (x.elo - elo).abs().total_cmp(&(y.elo - elo).abs()))
        .expect("a stored table has anchors");
    a.spec.parse().expect("a stored table's specs parse")
}

/// The anchor after `spec` in `table` (by Elo), above it (`up`) or below it.
pub fn next_anchor(table: &AnchorTable, spec: &PlayerSpec, up: bool) -> Option<PlayerSpec> {
    let i = table.position(spec)?;
    let j = if up { i.checked_add(1)? } else { i.checked_sub(1)? };
    table.anchor.get(j)?.spec.parse().ok()
}

/// A score against an anchor this close to 0 or 1 says little about how far above or below it
/// the model is: the ladder then plays the next anchor in that direction too.
pub const LOPSIDED: f64 = 0.15;

/// The absolute Elo of player 0 of each match's games, every other player of a match being its
/// anchor (matches against a player that is not one of `table`'s anchors are left out; None
/// without any): the maximum-likelihood Elo of all the games, the anchors held at their ratings.
pub fn absolute_elo(
    table: &AnchorTable,
    matches: &[(PlayerSpec, Vec<ArenaGame>)],
) -> Option<Absolute> {
    // The pool: 0 = the model, then the anchors played, each held at its rating.
    let mut fixed = Vec::new();
    let mut names = Vec::new();
    let mut rated = Vec::new();
    for (spec, games) in matches {
        let Some(anchor) = table.position(spec).map(|i| &table.anchor[i]) else { continue };
        let index = fixed.len() + 1;
        fixed.push((index, anchor.elo));
        names.push(anchor.spec.clone());
        let seats = games.first().map_or(0, |g| g.seating.len());
        let who: Vec<usize> = (0..seats).map(|p| if p == 0 { 0 } else { index }).collect();
        rated.extend(rated_games(games, &who));
    }
    let r = fit(fixed.len() + 1, &rated, &fixed).ok()?;
    Some(Absolute {
        anchor: names.join(" + "),
        anchor_elo: fixed.first()?.1,
        elo: r.elo[0],
        interval: r.interval[0],
    })
}

/// Plays the ladder of `gen-g` and writes its result; see the [module docs](super).
/// `on_game` is called after every game (`2 * ladder.games` in all, `3 *` when the anchors'
/// match was lopsided and the next anchor is played too).
pub fn run_ladder<V: Variant>(
    run_dir: &Path,
    config: &RunConfig,
    g: u32,
    mut on_game: impl FnMut(),
) -> Result<LadderResult, RunError> {
    let ladder = &config.ladder;
    let models = run_dir.join("models");
    let model_dir = models.join(generation_dir_name(g));
    let (opp, opp_rating, opp_absolute) = opponent(&models, g)?;
    let opp_dir = models.join(generation_dir_name(opp));
    let sims = ladder.simulations;
    // The ladder measures what a model earns, so its searches score draws at the fair share.
    let draw = DrawScore::Share;
    let values = LeafValues::Network;
    let new = PlayerSpec::Checkpoint { dir: model_dir.clone(), sims, draw, values, clock: None };
    let old = PlayerSpec::Checkpoint { dir: opp_dir, sims, draw, values, clock: None };
    let variant: VariantKind = V::NAME.parse().expect("a variant's name");
    let anchors = AnchorTable::builtin(variant).map_err(|e| RunError::Baseline(e.to_string()))?;
    let choice = ladder.baseline_choice().map_err(RunError::Baseline)?;
    let baseline = match &choice {
        Baseline::Fixed(spec) => spec.clone(),
        Baseline::Anchors => nearest_anchor(&anchors, opp_absolute.unwrap_or(0.0)),
    };
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
        play: config.play,
        rollout_moves: ladder.max_moves as usize,
        options: config.game.rule_options(),
        clocks: Vec::new(),
    };
    let mut load = arena_loader::<V>(config.net.device, config.selfplay.eval_cache);
    let mut play = |others: &PlayerSpec| -> Result<(Versus, Vec<ArenaGame>), RunError> {
        let specs: Vec<PlayerSpec> = std::iter::once(new.clone())
            .chain(std::iter::repeat_n(others.clone(), V::NUM_PLAYERS - 1))
            .collect();
        let mut players = specs
            .iter()
            .map(|s| ArenaPlayer::<V>::from_spec(s, &mut load))
            .collect::<Result<Vec<_>, _>>()?;
        // An anchor on a clock plays on it.
        let clocks = specs.iter().map(PlayerSpec::clock).collect();
        let match_config = MatchConfig { clocks, ..match_config.clone() };
        let (games, _) = play_match(&mut players, &match_config, |_| on_game())?;
        let names: Vec<String> = specs.iter().map(PlayerSpec::short_name).collect();
        write_games(&games_dir, V::NAME, &names, &games)
            .map_err(|source| RunError::LadderGames { dir: games_dir.clone(), source })?;
        let versus = Versus::new(&games, &MatchReport::new(&names, V::PLAYER_NAMES, &games));
        Ok((versus, games))
    };
    let (vs_opponent, _) = play(&old)?;
    let (vs_baseline, baseline_games) = play(&baseline)?;
    let mut rated = vec![(baseline.clone(), baseline_games)];
    let lopsided = vs_baseline.score <= LOPSIDED || vs_baseline.score >= 1.0 - LOPSIDED;
    if choice == Baseline::Anchors
        && lopsided
        && let Some(next) = next_anchor(&anchors, &baseline, vs_baseline.score > 0.5)
    {
        let (_, games) = play(&next)?;
        rated.push((next, games));
    }
    let absolute = absolute_elo(&anchors, &rated);
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
        absolute,
    };
    result.write(&model_dir)?;
    Ok(result)
}

#[cfg(test)]
mod tests {
    use super::*;
    use games::Termination;
    use selfplay::arena::anchors::Anchor;

    fn table() -> AnchorTable {
        let anchor = [("random", 0.0), ("greedy", 100.0), ("alphabeta:depth=2", 800.0)]
            .iter()
            .map(|&(spec, elo)| Anchor { spec: spec.into(), elo, interval: 0.0, games: 0 })
            .collect();
        AnchorTable { variant: VariantKind::Camelot, games_per_pair: 0, seed: 0, anchor }
    }

    fn game(id: u64, seating: Vec<usize>, result: Vec<f32>) -> ArenaGame {
        ArenaGame {
            game_id: id,
            seed: 0,
            seating,
            start_position: String::new(),
            moves: Vec::new(),
            result,
            termination: Termination::Castle,
        }
    }

    #[test]
    fn the_anchor_nearest_the_last_absolute_elo_is_played() {
        let t = table();
        assert_eq!(nearest_anchor(&t, 0.0).to_string(), "random");
        assert_eq!(nearest_anchor(&t, 420.0).to_string(), "greedy");
        assert_eq!(nearest_anchor(&t, 600.0).to_string(), "alphabeta:depth=2");
        assert_eq!(nearest_anchor(&t, 5000.0).to_string(), "alphabeta:depth=2");
    }

    #[test]
    fn games_against_an_anchor_give_an_absolute_elo_on_its_scale() {
        let t = table();
        // The model (player 0) scores 3 of 4 against greedy, seats alternating: with the prior's
        // virtual draw 3.5 of 5, so 100 + Elo(0.7).
        let games = vec![
            game(0, vec![0, 1], vec![1.0, 0.0]),
            game(1, vec![1, 0], vec![0.0, 1.0]),
            game(2, vec![0, 1], vec![1.0, 0.0]),
            game(3, vec![1, 0], vec![1.0, 0.0]),
        ];
        let greedy: PlayerSpec = "greedy".parse().unwrap();
        let a = absolute_elo(&t, &[(greedy.clone(), games.clone())]).unwrap();
        assert_eq!((a.anchor.as_str(), a.anchor_elo), ("greedy", 100.0));
        assert!((a.elo - (100.0 + Elo::from_score(0.7).0)).abs() < 1e-6, "{a:?}");
        assert!(a.interval > 100.0, "four games say little: {a:?}");
        // Not an anchor: no absolute Elo.
        let other: PlayerSpec = "mcts:sims=3".parse().unwrap();
        assert!(absolute_elo(&t, &[(other, games.clone())]).is_none());
        // Tri-Camelot: the model against two copies; it wins one of two.
        let tri = vec![
            game(0, vec![0, 1, 2], vec![1.0, 0.0, 0.0]),
            game(1, vec![2, 0, 1], vec![0.0, 0.0, 1.0]),
        ];
        let a = absolute_elo(&t, &[(greedy.clone(), tri)]).unwrap();
        assert!(a.elo > 100.0, "winning half of three-player games is above the anchor: {a:?}");
        // Swept by alpha-beta (800) and sweeping greedy (100): between the two, with a tighter
        // interval than from either match alone.
        let lost: Vec<ArenaGame> = (0..8).map(|i| game(i, vec![0, 1], vec![0.0, 1.0])).collect();
        let won: Vec<ArenaGame> = (0..8).map(|i| game(i, vec![0, 1], vec![1.0, 0.0])).collect();
        let ab: PlayerSpec = "alphabeta:depth=2".parse().unwrap();
        let both = absolute_elo(&t, &[(ab.clone(), lost.clone()), (greedy.clone(), won)]).unwrap();
        let alone = absolute_elo(&t, &[(ab, lost)]).unwrap();
        assert!(both.elo > 100.0 && both.elo < 800.0, "{both:?}");
        assert!(both.interval < alone.interval, "{both:?} {alone:?}");
        assert_eq!(both.anchor, "alphabeta:depth=2 + greedy");
    }

    #[test]
    fn the_next_anchor_up_or_down() {
        let t = table();
        let greedy: PlayerSpec = "greedy".parse().unwrap();
        assert_eq!(next_anchor(&t, &greedy, true).unwrap().to_string(), "alphabeta:depth=2");
        assert_eq!(next_anchor(&t, &greedy, false).unwrap().to_string(), "random");
        assert!(next_anchor(&t, &"random".parse().unwrap(), false).is_none());
        assert!(next_anchor(&t, &"alphabeta:depth=2".parse().unwrap(), true).is_none());
        assert!(next_anchor(&t, &"mcts:sims=9".parse().unwrap(), true).is_none());
    }
}
