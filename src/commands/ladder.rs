//! The ladder inside `run`: after a generation's training, the new model `gen-g` plays a short
//! arena match against its opponent (the newest promoted model before it) and one against the
//! config's fixed baseline. The result is written to `models/gen-NNNN/ladder.toml` (which also
//! says whether the model was promoted), the games to `ladder/gen-NNNN/` as parquet `games`
//! records, and the figures to the generation's row of `generations.csv`.
//!
//! For Tri-Camelot the new model plays against two copies of the opponent (and of the
//! baseline); its per-game score is its mean head-to-head placement against them (1 above, ½
//! level, 0 below), so ½ is even as in Camelot.
//!
//! The **rating** chains the Elo differences: `gen-0000` is 0 and a measured model is its
//! opponent's rating plus its Elo over it (its score clipped to `[1/(2n), 1 - 1/(2n)]` for `n`
//! games, so a clean sweep adds a finite amount).

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use games::{Encode, State, Variant};
use selfplay::DrawScore;
use selfplay::arena::{
    ArenaGame, ArenaPlayer, Elo, EloInterval, MatchConfig, MatchReport, PlayerSpec, elo_interval,
    head_to_head, play_match, write_games,
};
use serde::{Deserialize, Serialize};
use train::{Gating, RunConfig, generation_dir_name, list_generation_dirs};

use crate::evaluators::arena_loader;
use crate::progress;

/// The file in a model folder holding its ladder result.
pub const LADDER_FILE: &str = "ladder.toml";

/// One model's ladder result.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LadderResult {
    pub generation: u32,
    /// The generation of the opponent model.
    pub opponent: u32,
    /// Games of each match.
    pub games: u32,
    pub vs_opponent: Versus,
    pub baseline: String,
    pub vs_baseline: Versus,
    /// Whether this model plays the next self-play (always, without gating).
    pub promoted: bool,
    /// Chained Elo, `gen-0000` = 0.
    pub rating: f64,
}

/// The new model's figures against one opponent.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Versus {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// Mean per-game score, ½ = even (head-to-head placements for three players).
    pub score: f64,
    /// Score share: (wins + draws / players) / games (1/players = even).
    pub share: f64,
    pub elo: f64,
    pub elo_low: f64,
    pub elo_high: f64,
}

impl Versus {
    fn new(games: &[ArenaGame], report: &MatchReport) -> Versus {
        let scores = first_player_scores(games);
        let e: EloInterval = elo_interval(&scores).expect("a ladder match has games");
        let line = &report.players[0];
        Versus {
            wins: line.overall.wins,
            draws: line.overall.draws,
            losses: line.overall.losses,
            score: e.score,
            share: line.score,
            // `+ 0.0` turns the -0 of an even score into 0.
            elo: e.elo.0 + 0.0,
            elo_low: e.low.0 + 0.0,
            elo_high: e.high.0 + 0.0,
        }
    }

    fn shown(&self) -> String {
        format!(
            "{}/{}/{} score {:.2} Elo {} [{}, {}]",
            self.wins,
            self.draws,
            self.losses,
            self.score,
            Elo(self.elo),
            Elo(self.elo_low),
            Elo(self.elo_high)
        )
    }
}

/// Player 0's per-game score: its mean head-to-head placement against the others.
fn first_player_scores(games: &[ArenaGame]) -> Vec<f64> {
    games
        .iter()
        .map(|g| {
            let others = g.result.len().max(2) - 1;
            (1..=others).map(|p| head_to_head(g, 0, p)).sum::<f64>() / others as f64
        })
        .collect()
}

impl LadderResult {
    /// The `generations.csv` columns.
    pub const CSV_HEADER: [&'static str; 12] = [
        "ladder_opponent",
        "score_vs_opponent",
        "elo_vs_opponent",
        "elo_vs_opponent_low",
        "elo_vs_opponent_high",
        "score_vs_baseline",
        "share_vs_baseline",
        "elo_vs_baseline",
        "elo_vs_baseline_low",
        "elo_vs_baseline_high",
        "promoted",
        "rating",
    ];

    /// The columns' values; `None` (a generation without a ladder) gives empty cells.
    pub fn csv_cells(result: Option<&LadderResult>) -> Vec<String> {
        let Some(r) = result else { return vec![String::new(); Self::CSV_HEADER.len()] };
        let f = |x: f64| format!("{x:.1}");
        vec![
            r.opponent.to_string(),
            format!("{:.4}", r.vs_opponent.score),
            f(r.vs_opponent.elo),
            f(r.vs_opponent.elo_low),
            f(r.vs_opponent.elo_high),
            format!("{:.4}", r.vs_baseline.score),
            format!("{:.4}", r.vs_baseline.share),
            f(r.vs_baseline.elo),
            f(r.vs_baseline.elo_low),
            f(r.vs_baseline.elo_high),
            u8::from(r.promoted).to_string(),
            f(r.rating),
        ]
    }

    /// The summary line printed after the generation's line.
    pub fn line(&self) -> String {
        format!(
            "ladder gen-{:04}: vs gen-{:04} {} | vs {} {} | {} | rating {:.0}",
            self.generation,
            self.opponent,
            self.vs_opponent.shown(),
            self.baseline,
            self.vs_baseline.shown(),
            if self.promoted { "promoted" } else { "not promoted" },
            self.rating
        )
    }

    /// Reads `models/gen-NNNN/ladder.toml`; `None` when the model was not measured.
    pub fn read(model_dir: &Path) -> Result<Option<LadderResult>> {
        let path = model_dir.join(LADDER_FILE);
        match std::fs::read_to_string(&path) {
            Ok(text) => Ok(Some(
                toml::from_str(&text)
                    .with_context(|| format!("{} is not a ladder result", path.display()))?,
            )),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(e).with_context(|| format!("reading {}", path.display())),
        }
    }

    fn write(&self, model_dir: &Path) -> Result<()> {
        let path = model_dir.join(LADDER_FILE);
        Ok(model::write_atomic(&path, toml::to_string(self)?.as_bytes())?)
    }
}

/// The model that plays self-play at generation `g`: the newest `gen-k`, `k <= g`, that is
/// promoted (`gen-0000`, models without a ladder result, and every model without gating are).
pub fn self_play_model(models: &Path, g: u32) -> Result<(u32, PathBuf)> {
    let dirs =
        list_generation_dirs(models).with_context(|| format!("reading {}", models.display()))?;
    for (k, dir) in dirs.into_iter().rev().filter(|(k, _)| *k <= g) {
        if k == 0 || LadderResult::read(&dir)?.is_none_or(|r| r.promoted) {
            return Ok((k, dir));
        }
    }
    anyhow::bail!("{} holds no model at or before generation {g}", models.display())
}

/// The opponent of `gen-g`: the newest measured and promoted model before it (or `gen-0000`),
/// with its rating.
fn opponent(models: &Path, g: u32) -> Result<(u32, f64)> {
    for k in (1..g).rev() {
        if let Some(r) = LadderResult::read(&models.join(generation_dir_name(k)))? {
            if r.promoted {
                return Ok((k, r.rating));
            }
        }
    }
    Ok((0, 0.0))
}

/// Plays the ladder of `gen-g` and writes its result; see the module docs.
pub fn run_ladder<V: Variant>(run_dir: &Path, config: &RunConfig, g: u32) -> Result<LadderResult>
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
    let baseline = ladder.baseline_spec().map_err(anyhow::Error::msg)?;
    let games_dir = run_dir.join("ladder").join(generation_dir_name(g));
    if games_dir.exists() {
        // A ladder cut short is played again whole.
        std::fs::remove_dir_all(&games_dir)
            .with_context(|| format!("removing {}", games_dir.display()))?;
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
    let bar = progress::bar(2 * u64::from(ladder.games), "ladder");
    let mut load = arena_loader::<V>(config.net.device, config.selfplay.eval_cache);
    let mut play = |others: &PlayerSpec| -> Result<Versus> {
        let specs: Vec<PlayerSpec> = std::iter::once(new.clone())
            .chain(std::iter::repeat_n(others.clone(), V::NUM_PLAYERS - 1))
            .collect();
        let mut players = specs
            .iter()
            .map(|s| ArenaPlayer::<V>::from_spec(s, &mut load))
            .collect::<Result<Vec<_>, _>>()?;
        let (games, _) = play_match(&mut players, &match_config, |_| bar.inc(1))?;
        let names: Vec<String> = specs.iter().map(PlayerSpec::short_name).collect();
        write_games(&games_dir, V::NAME, &names, &games)
            .with_context(|| format!("writing ladder games to {}", games_dir.display()))?;
        Ok(Versus::new(&games, &MatchReport::new(&names, V::PLAYER_NAMES, &games)))
    };
    let vs_opponent = play(&old)?;
    let vs_baseline = play(&baseline)?;
    bar.finish_and_clear();
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

#[cfg(test)]
mod tests {
    use super::*;
    use games::Termination;

    fn game(result: Vec<f32>) -> ArenaGame {
        ArenaGame {
            game_id: 0,
            seed: 0,
            seating: (0..result.len()).collect(),
            start_position: String::new(),
            moves: Vec::new(),
            result,
            termination: Termination::MoveLimit,
        }
    }

    #[test]
    fn the_first_players_score_is_its_mean_placement() {
        let games = [
            game(vec![1.0, 0.0]),
            game(vec![0.5, 0.5]),
            game(vec![0.0, 1.0, 0.0]),
            game(vec![1.0, 0.0, 0.0]),
            game(vec![0.0, 0.0, 1.0]),
        ];
        assert_eq!(first_player_scores(&games), vec![1.0, 0.5, 0.25, 1.0, 0.25]);
    }
}
