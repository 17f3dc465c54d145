//! Where self-play games start (the `selfplay.start` setting).
//!
//! From the start position alone, a small network on a CPU budget almost never sees a Camelot
//! castle win: its games end by captures or at the move cap, so it never learns that two pieces
//! in the opponent's castle win, and cannot convert a material lead against a player who flees.
//! `endgames` starts a share of the games from random sparse positions ([`Game::random_endgame`])
//! where castle entries and conversions are a few moves away. `openings` starts each game after
//! a few random moves, so that self-play does not replay one opening: without it Tri-Camelot
//! self-play could collapse into one castle race that the first seat wins.

use games::Game;
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use serde::{Deserialize, Serialize};

/// The start of each self-play game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Start {
    /// Every game from the session's start position.
    #[default]
    Standard,
    /// Each game, with probability `fraction`, from a random sparse position with
    /// `min_pieces..=max_pieces` pieces per seat (capped at a seat's starting army); the others
    /// from the start position.
    Endgames { fraction: f32, min_pieces: u32, max_pieces: u32 },
    /// Each game from the start position after a number of complete moves drawn uniformly from
    /// `0..=max_moves`, each made of uniformly random legal legs (the games' records start
    /// after them, so opening statistics see only searched moves).
    Openings { max_moves: u32 },
}

impl Start {
    /// The start of one game: `standard`, or a random endgame of the same game, drawn with the
    /// game's own random stream. Falls back to `standard` only if the game has no random
    /// endgames, which [`Start::check`] rules out before a session starts.
    pub(crate) fn pick<G: Game>(self, standard: G, rng: &mut impl Rng) -> G {
        match self {
            Start::Endgames { fraction, min_pieces, max_pieces }
                if rng.random::<f32>() < fraction =>
            {
                standard.random_endgame(rng, min_pieces..=max_pieces).unwrap_or(standard)
            }
            Start::Openings { max_moves } => {
                let moves = rng.random_range(0..=max_moves);
                random_opening(&standard, moves, rng).unwrap_or(standard)
            }
            _ => standard,
        }
    }

    /// Checks the numbers (None when the setting is valid).
    pub(crate) fn problem(self) -> Option<(&'static str, &'static str)> {
        match self {
            Start::Standard => None,
            Start::Endgames { fraction, .. } if !(0.0..=1.0).contains(&fraction) => {
                Some(("start.endgames.fraction", "must be between 0 and 1"))
            }
            Start::Endgames { min_pieces: 0, .. } => {
                Some(("start.endgames.min_pieces", "must be at least 1"))
            }
            Start::Endgames { min_pieces, max_pieces, .. } if max_pieces < min_pieces => {
                Some(("start.endgames.max_pieces", "must be at least min_pieces"))
            }
            Start::Endgames { max_pieces, .. } if max_pieces > 28 => {
                Some(("start.endgames.max_pieces", "must be at most 28 (Camelot's pieces)"))
            }
            Start::Endgames { .. } => None,
            Start::Openings { max_moves: 0 } => {
                Some(("start.openings.max_moves", "must be at least 1 (or start = \"standard\")"))
            }
            Start::Openings { max_moves } if u64::from(max_moves) > search::bounds::MAX_MOVES => {
                Some(("start.openings.max_moves", "must be at most 10000"))
            }
            Start::Openings { .. } => None,
        }
    }

    /// Whether `game` can give this setting's endgames (None when it can).
    pub(crate) fn check<G: Game>(self, game: &G) -> Option<(&'static str, String)> {
        let Start::Endgames { min_pieces, max_pieces, .. } = self else { return None };
        let mut rng = rand::rngs::StdRng::seed_from_u64(0);
        game.random_endgame(&mut rng, min_pieces..=max_pieces).is_none().then(|| {
            (
                "start",
                format!(
                    "{} has no playable random positions with {min_pieces} to {max_pieces} \
                     pieces per seat",
                    G::NAME
                ),
            )
        })
    }
}

/// `standard` after `moves` complete moves of uniformly random legal legs (a move is complete
/// when the seat to move changes); None if the game ends on the way, as a finished game is no
/// start.
fn random_opening<G: Game>(standard: &G, moves: u32, rng: &mut impl Rng) -> Option<G> {
    let mut game = standard.clone();
    let mut legal = Vec::new();
    for _ in 0..moves {
        let mover = game.to_move();
        while game.to_move() == mover {
            game.legal_actions(&mut legal);
            game.play(*legal.choose(rng)?);
        }
    }
    game.outcome().is_none().then_some(game)
}

#[cfg(test)]
mod tests {
    use games::toy::TicTacToe;
    use games::{Camelot, Game};
    use rand::SeedableRng;
    use rand::rngs::StdRng;

    use super::Start;

    const ENDGAMES: Start = Start::Endgames { fraction: 0.5, min_pieces: 1, max_pieces: 5 };

    #[test]
    fn the_fraction_of_endgame_starts_is_drawn_per_game() {
        let mut rng = StdRng::seed_from_u64(3);
        let standard = Camelot::initial().to_string();
        let starts: Vec<String> =
            (0..400).map(|_| ENDGAMES.pick(Camelot::initial(), &mut rng).to_string()).collect();
        let sparse = starts.iter().filter(|s| **s != standard).count();
        assert!((150..250).contains(&sparse), "{sparse} of 400 endgame starts at fraction 0.5");
        let distinct: std::collections::HashSet<_> = starts.iter().collect();
        assert!(distinct.len() > sparse * 9 / 10, "endgames differ from each other");
        assert!(starts.iter().all(|s| {
            Start::Standard.pick(s.parse::<Camelot>().unwrap(), &mut rng).to_string() == *s
        }));
    }

    #[test]
    fn openings_play_up_to_max_moves_random_complete_moves() {
        let mut rng = StdRng::seed_from_u64(4);
        // Tic-tac-toe shows the number of moves played: its marks.
        let mut played = [0u32; 4];
        for _ in 0..400 {
            let start = Start::Openings { max_moves: 3 }.pick(TicTacToe::initial(), &mut rng);
            assert!(start.outcome().is_none());
            played[start.to_string().chars().filter(|c| matches!(c, 'X' | 'O')).count()] += 1;
        }
        assert!(played.iter().all(|&n| (60..140).contains(&n)), "moves 0..=3 drawn {played:?}");
        // Camelot: varied, unfinished, never in the middle of a move.
        let starts: Vec<String> = (0..200)
            .map(|_| {
                Start::Openings { max_moves: 4 }.pick(Camelot::initial(), &mut rng).to_string()
            })
            .collect();
        let distinct: std::collections::HashSet<_> = starts.iter().collect();
        assert!(distinct.len() > 120, "{} distinct openings of 200", distinct.len());
        for s in &starts {
            let game: Camelot = s.parse().unwrap();
            assert!(game.outcome().is_none() && !s.contains("move="), "{s}");
        }
    }

    #[test]
    fn settings_are_checked() {
        assert_eq!(Start::Standard.problem(), None);
        assert_eq!(ENDGAMES.problem(), None);
        let bad = |fraction, min_pieces, max_pieces| {
            Start::Endgames { fraction, min_pieces, max_pieces }.problem().map(|p| p.0)
        };
        assert_eq!(bad(1.5, 1, 3), Some("start.endgames.fraction"));
        assert_eq!(bad(f32::NAN, 1, 3), Some("start.endgames.fraction"));
        assert_eq!(bad(0.5, 0, 3), Some("start.endgames.min_pieces"));
        assert_eq!(bad(0.5, 4, 3), Some("start.endgames.max_pieces"));
        // A game without endgames, and a range that gives no playable Camelot position.
        assert!(ENDGAMES.check(&TicTacToe::initial()).unwrap().1.contains("tictactoe"));
        let lone = Start::Endgames { fraction: 0.5, min_pieces: 1, max_pieces: 1 };
        assert!(lone.check(&Camelot::initial()).is_some());
        assert_eq!(ENDGAMES.check(&Camelot::initial()), None);
        assert_eq!(Start::Standard.check(&TicTacToe::initial()), None);
        let openings = |max_moves| Start::Openings { max_moves }.problem().map(|p| p.0);
        assert_eq!(openings(0), Some("start.openings.max_moves"));
        assert_eq!(openings(6), None);
        assert_eq!(Start::Openings { max_moves: 6 }.check(&TicTacToe::initial()), None);
    }

    #[test]
    fn the_setting_reads_from_toml() {
        #[derive(serde::Deserialize)]
        struct T {
            start: Start,
        }
        let t: T = toml::from_str(
            "start = { endgames = { fraction = 0.25, min_pieces = 1, max_pieces = 7 } }",
        )
        .unwrap();
        assert_eq!(t.start, Start::Endgames { fraction: 0.25, min_pieces: 1, max_pieces: 7 });
        let t: T = toml::from_str("start = \"standard\"").unwrap();
        assert_eq!(t.start, Start::Standard);
        let t: T = toml::from_str("start = { openings = { max_moves = 6 } }").unwrap();
        assert_eq!(t.start, Start::Openings { max_moves: 6 });
        assert!(toml::from_str::<T>("start = { endgames = { fraction = 0.25 } }").is_err());
    }
}
