//! The absolute Elo scale: a fixed set of **anchor** players rated once by a round robin
//! ([`round_robin`], `random` held at 0) and stored with the project (`selfplay/anchors/*.toml`,
//! built into the program: [`AnchorTable::builtin`]); [`rate`] places any other player on that
//! scale by playing the anchors next to its estimate until its interval is tight.
//!
//! A match of a pair of players is two seats for Camelot; for Tri-Camelot each pair plays two
//! matches, one player against two copies of the other and the other way round (every seating
//! of the three seats in turn), rated by the three-player model of [`super::rating`].

use std::path::Path;

use games::VariantKind;
use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::game::ArenaGame;
use super::rating::{RatedGame, RatingError, fit};
use super::spec::{PlayerSpec, SpecError};

/// The anchors a round robin rates when none are given: floors, the classical searchers at
/// growing depths, and rollout MCTS at growing budgets.
pub const DEFAULT_ANCHORS: [&str; 8] = [
    "random",
    "greedy",
    "mcts:sims=64,cutoff=4",
    "mcts:sims=256,cutoff=4",
    "alphabeta:depth=1",
    "alphabeta:depth=2",
    "alphabeta:depth=3",
    "alphabeta:depth=4",
];

/// One rated anchor.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Anchor {
    /// The player, as written on the command line.
    pub spec: String,
    pub elo: f64,
    /// Half the width of its 95% interval from the round robin (0 for `random`, the zero).
    pub interval: f64,
    /// Games it played in the round robin.
    pub games: usize,
}

/// The anchors of one variant and how they were rated.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AnchorTable {
    pub variant: VariantKind,
    /// Games of each pair (Tri-Camelot: of each of its two matches).
    pub games_per_pair: u64,
    pub seed: u64,
    /// By rising Elo.
    pub anchor: Vec<Anchor>,
}

/// Why an anchor table could not be read, or a rating made.
#[derive(Debug, Error)]
pub enum AnchorError {
    #[error("anchor table {path}: {message}")]
    Read { path: String, message: String },
    #[error("anchor table {path}: anchor `{spec}`: {source}")]
    Spec { path: String, spec: String, source: SpecError },
    #[error("anchor table {path} is for {found}, not {expected}")]
    Variant { path: String, found: VariantKind, expected: VariantKind },
    #[error("anchor table {0} has no anchors")]
    Empty(String),
    #[error(transparent)]
    Rating(#[from] RatingError),
}

/// The stored tables, built into the program.
const CAMELOT: &str = include_str!("../../anchors/camelot.toml");
const TRICAMELOT: &str = include_str!("../../anchors/tricamelot.toml");

impl AnchorTable {
    /// The table stored with the project for `variant`.
    pub fn builtin(variant: VariantKind) -> Result<Self, AnchorError> {
        let (name, text) = match variant {
            VariantKind::Camelot => ("selfplay/anchors/camelot.toml", CAMELOT),
            VariantKind::Tricamelot => ("selfplay/anchors/tricamelot.toml", TRICAMELOT),
        };
        Self::parse(text, name, variant)
    }

    /// Reads a table from a file, checked to be for `variant`.
    pub fn load(path: &Path, variant: VariantKind) -> Result<Self, AnchorError> {
        let name = path.display().to_string();
        let text = std::fs::read_to_string(path)
            .map_err(|e| AnchorError::Read { path: name.clone(), message: e.to_string() })?;
        Self::parse(&text, &name, variant)
    }

    /// Parses a table (`name` for messages): every spec must parse, the variant must match.
    pub fn parse(text: &str, name: &str, variant: VariantKind) -> Result<Self, AnchorError> {
        let table: AnchorTable = toml::from_str(text)
            .map_err(|e| AnchorError::Read { path: name.into(), message: e.to_string() })?;
        if table.variant != variant {
            return Err(AnchorError::Variant {
                path: name.into(),
                found: table.variant,
                expected: variant,
            });
        }
        if table.anchor.is_empty() {
            return Err(AnchorError::Empty(name.into()));
        }
        for a in &table.anchor {
            a.spec.parse::<PlayerSpec>().map_err(|source| AnchorError::Spec {
                path: name.into(),
                spec: a.spec.clone(),
                source,
            })?;
        }
        Ok(table)
    }

    /// The index of the anchor that is `spec` (specs compared parsed, so spellings of one
    /// player match); None when `spec` is not an anchor.
    pub fn position(&self, spec: &PlayerSpec) -> Option<usize> {
        self.anchor.iter().position(|a| a.spec.parse().ok().as_ref() == Some(spec))
    }

    /// The table as TOML, with a header saying how to make it again.
    pub fn to_toml(&self) -> String {
        let body = toml::to_string(self).expect("an anchor table serialises");
        format!(
            "# Anchors of the absolute Elo scale ({}), rated by a round robin with random at 0:\n\
             # camelot-zero anchors --variant {} --games-per-pair {} --seed {}\n\
             # `interval` is half the width of the 95% interval.\n\n{body}",
            self.variant.as_str(),
            self.variant.as_str(),
            self.games_per_pair,
            self.seed,
        )
    }
}

/// The players seated in one match of a pair: `[a, b]` for two seats; for three, `[a, b, b]`
/// and `[a, a, b]` (as indices into the pair).
pub fn pairings(seats: usize) -> Vec<Vec<usize>> {
    match seats {
        2 => vec![vec![0, 1]],
        _ => vec![vec![0, 1, 1], vec![0, 0, 1]],
    }
}

/// The rated games of a match: `who[p]` is the pool index of the match's player `p`.
pub fn rated_games(games: &[ArenaGame], who: &[usize]) -> Vec<RatedGame> {
    games
        .iter()
        .map(|g| RatedGame {
            players: g.seating.iter().map(|&p| who[p]).collect(),
            shares: g.result.iter().map(|&x| f64::from(x)).collect(),
        })
        .collect()
}

/// Plays every pair of `specs` (`play(players, match index)` plays one match of the players
/// seated as given, `games_per_pair` games) and rates them all, `specs[0]` held at 0.
pub fn round_robin<E>(
    variant: VariantKind,
    specs: &[PlayerSpec],
    games_per_pair: u64,
    seed: u64,
    seats: usize,
    mut play: impl FnMut(&[&PlayerSpec], u64) -> Result<Vec<ArenaGame>, E>,
) -> Result<AnchorTable, E>
where
    E: From<AnchorError>,
{
    let mut rated = Vec::new();
    let mut index = 0;
    for a in 0..specs.len() {
        for b in a + 1..specs.len() {
            for seating in pairings(seats) {
                let who: Vec<usize> = seating.iter().map(|&k| [a, b][k]).collect();
                let players: Vec<&PlayerSpec> = who.iter().map(|&p| &specs[p]).collect();
                let games = play(&players, index)?;
                index += 1;
                rated.extend(rated_games(&games, &who));
            }
        }
    }
    let r = fit(specs.len(), &rated, &[(0, 0.0)]).map_err(AnchorError::from)?;
    let mut anchor: Vec<Anchor> = specs
        .iter()
        .enumerate()
        .map(|(p, s)| Anchor {
            spec: s.to_string(),
            elo: r.elo[p].round(),
            interval: r.interval[p].round(),
            games: r.games[p],
        })
        .collect();
    anchor.sort_by(|x, y| x.elo.total_cmp(&y.elo));
    Ok(AnchorTable { variant, games_per_pair, seed, anchor })
}

/// How [`rate`] plays.
#[derive(Clone, Debug)]
pub struct RateConfig {
    /// Games of each match against an anchor (Tri-Camelot: of each of its two seatings).
    pub games_per_match: u64,
    /// Stop once the 95% interval is at most this many Elo either side.
    pub target_interval: f64,
    /// Stop after this many games in all, tight or not.
    pub max_games: usize,
}

/// One match of a rating: the anchor, who the match's players are (`seating[p]`: 0 = the rated
/// player, 1 = the anchor; see [`pairings`]), and the games.
#[derive(Clone, Debug)]
pub struct RatedMatch {
    pub anchor: usize,
    pub seating: Vec<usize>,
    pub games: Vec<ArenaGame>,
}

/// The rating of a player against the anchors.
#[derive(Clone, Debug)]
pub struct Rating {
    pub elo: f64,
    /// Half the width of the 95% interval.
    pub interval: f64,
    pub games: usize,
    pub matches: Vec<RatedMatch>,
}

/// Rates a player against `table`'s anchors (held at their ratings): starting from the middle
/// anchor, each round plays the anchor just below or just above the current estimate (the one
/// with fewer games so far), then refits the maximum-likelihood Elo over every game played.
/// `play(anchor, seating, match index)` plays one match, the rated player being player 0 and
/// `seating` saying which players sit where ([`pairings`], 0 = the rated player).
pub fn rate<E>(
    table: &AnchorTable,
    seats: usize,
    config: &RateConfig,
    mut play: impl FnMut(usize, &[usize], u64) -> Result<Vec<ArenaGame>, E>,
    mut progress: impl FnMut(&Rating),
) -> Result<Rating, E>
where
    E: From<AnchorError>,
{
    let n = table.anchor.len();
    let me = n; // the pool: the anchors, then the rated player
    let fixed: Vec<(usize, f64)> =
        table.anchor.iter().enumerate().map(|(i, a)| (i, a.elo)).collect();
    let mut rated = Vec::new();
    let mut played = vec![0usize; n];
    let mut rating = Rating {
        elo: table.anchor[n / 2].elo,
        interval: f64::INFINITY,
        games: 0,
        matches: Vec::new(),
    };
    let mut index = 0;
    while rating.games < config.max_games.max(1) && rating.interval > config.target_interval {
        let below = table.anchor.iter().rposition(|a| a.elo <= rating.elo).unwrap_or(0);
        let above = table.anchor.iter().position(|a| a.elo > rating.elo).unwrap_or(n - 1);
        let anchor = if played[above] < played[below] { above } else { below };
        for seating in pairings(seats) {
            let games = play(anchor, &seating, index)?;
            index += 1;
            let who: Vec<usize> =
                seating.iter().map(|&k| if k == 0 { me } else { anchor }).collect();
            rated.extend(rated_games(&games, &who));
            played[anchor] += games.len();
            rating.games += games.len();
            rating.matches.push(RatedMatch { anchor, seating: seating.clone(), games });
        }
        let r = fit(n + 1, &rated, &fixed).map_err(AnchorError::from)?;
        rating.elo = r.elo[me];
        rating.interval = r.interval[me];
        progress(&rating);
    }
    Ok(rating)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::{ArenaError, ArenaPlayer, MatchConfig, play_match};
    use games::{CamelotRules, TriCamelotRules, Variant};

    /// Plays one match of classical players (no networks here).
    fn play<V: Variant>(
        players: &[&PlayerSpec],
        games: u64,
        seed: u64,
    ) -> Result<Vec<ArenaGame>, ArenaError> {
        let mut players: Vec<ArenaPlayer<V>> = players
            .iter()
            .map(|s| ArenaPlayer::from_spec(s, &mut |_, _| Err("no networks".into())))
            .collect::<Result<_, _>>()?;
        let config = MatchConfig { games, seed, ..MatchConfig::default() };
        Ok(play_match(&mut players, &config, |_| {})?.0)
    }

    impl From<AnchorError> for ArenaError {
        fn from(e: AnchorError) -> Self {
            ArenaError::Load { dir: "anchors".into(), message: e.to_string() }
        }
    }

    fn specs(list: &[&str]) -> Vec<PlayerSpec> {
        list.iter().map(|s| s.parse().unwrap()).collect()
    }

    /// Rates `me` in games of `V` against `table`, whose anchors play as `anchors`: in each
    /// match's seating, 0 is `me` and any other seat the anchor faced.
    fn rate_against<V: Variant>(
        table: &AnchorTable,
        me: &PlayerSpec,
        anchors: &[PlayerSpec],
        config: &RateConfig,
        progress: impl FnMut(&Rating),
    ) -> Result<Rating, ArenaError> {
        let one_match = |a: usize, seating: &[usize], seed| {
            let players: Vec<&PlayerSpec> =
                seating.iter().map(|&k| if k == 0 { me } else { &anchors[a] }).collect();
            play::<V>(&players, config.games_per_match, seed)
        };
        rate(table, V::NUM_PLAYERS, config, one_match, progress)
    }

    #[test]
    fn a_round_robin_orders_the_floors_and_the_table_round_trips() {
        let specs = specs(&["random", "greedy", "alphabeta:depth=1"]);
        let table = round_robin(VariantKind::Camelot, &specs, 20, 1, 2, |p, i| {
            play::<CamelotRules>(p, 20, i)
        })
        .unwrap();
        let order: Vec<&str> = table.anchor.iter().map(|a| a.spec.as_str()).collect();
        assert_eq!(order, ["random", "greedy", "alphabeta:depth=1"], "{table:?}");
        assert_eq!(table.anchor[0].elo, 0.0);
        assert!(table.anchor.iter().all(|a| a.games == 40), "{table:?}");
        assert!(table.anchor[2].interval > 0.0);
        let text = table.to_toml();
        assert_eq!(AnchorTable::parse(&text, "t", VariantKind::Camelot).unwrap(), table);
        let err = AnchorTable::parse(&text, "t", VariantKind::Tricamelot).unwrap_err();
        assert!(err.to_string().contains("not tricamelot"), "{err}");
        let bad = text.replace("alphabeta:depth=1", "alphabeta:depth=0");
        let err = AnchorTable::parse(&bad, "t", VariantKind::Camelot).unwrap_err();
        assert!(err.to_string().contains("depth=0"), "{err}");
    }

    #[test]
    fn rating_a_player_plays_its_neighbours_until_the_interval_is_tight() {
        // Anchors at fixed ratings far apart; greedy, rated against them, lands between random
        // and alpha-beta and plays both of them.
        let table = AnchorTable {
            variant: VariantKind::Camelot,
            games_per_pair: 0,
            seed: 0,
            anchor: ["random", "alphabeta:depth=1"]
                .iter()
                .zip([0.0, 900.0])
                .map(|(s, elo)| Anchor { spec: s.to_string(), elo, interval: 0.0, games: 0 })
                .collect(),
        };
        let anchors = specs(&["random", "alphabeta:depth=1"]);
        let me: PlayerSpec = "greedy".parse().unwrap();
        let config = RateConfig { games_per_match: 20, target_interval: 150.0, max_games: 200 };
        let mut rounds = 0;
        let r =
            rate_against::<CamelotRules>(&table, &me, &anchors, &config, |_| rounds += 1).unwrap();
        assert!(r.elo > 0.0 && r.elo < 900.0, "{r:?}");
        assert!(r.interval <= 150.0 || r.games >= 200, "{r:?}");
        let faced: std::collections::BTreeSet<usize> = r.matches.iter().map(|m| m.anchor).collect();
        assert_eq!(faced.len(), 2, "both neighbours played");
        assert_eq!(rounds, r.matches.len());
        // Tri-Camelot: two seatings per round, the rated player seated once, then twice.
        let tri = AnchorTable { variant: VariantKind::Tricamelot, ..table };
        let config = RateConfig { games_per_match: 6, target_interval: 1.0, max_games: 12 };
        let r = rate_against::<TriCamelotRules>(&tri, &me, &anchors, &config, |_| {}).unwrap();
        assert_eq!((r.games, r.matches.len()), (12, 2));
        assert!(r.elo.is_finite());
    }
}
