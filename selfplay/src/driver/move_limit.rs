//! How self-play scores a game cut short by `max_moves` (the `selfplay.move_limit` setting).
//!
//! A move-limit game is not finished by the rules, so any score is an adjudication. Scoring it
//! a draw is neutral, but as a policy grows good at winning material and bad at converting it
//! (a lone Camelot piece is hard to catch, castle entries are rare), more and more games end at
//! the cap with one side far ahead, and their positions teach the value head that material does
//! not matter. `material` scores such games for the side that is clearly ahead instead, the way
//! engines adjudicate hopeless positions. Measured on Camelot, that is not enough: both sides
//! learn to keep their pieces apart (contact means compulsory captures) and games stall at the
//! cap with full armies. `progress` also counts how far forward the pieces stand, so a player who
//! stays home loses a capped game: advancing, the way to the castle win, pays. Arena and ladder
//! games always score the cap as a draw.

use games::{Game, MAX_PLAYERS, Outcome, Player};
use serde::{Deserialize, Serialize};

/// The score of a game that reaches `max_moves`. The termination stays `move-limit` either way,
/// so adjudicated games can be told apart from games finished by the rules.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum MoveLimit {
    /// A draw.
    #[default]
    Draw,
    /// The player with the most material ([`Game::material`]) wins when he is ahead of every
    /// other player by at least `margin` (at least 1); otherwise, and for games without a notion
    /// of material, a draw.
    Material { margin: u32 },
    /// Like `Material` with [`Game::progress`] as the measure (Camelot and Tri-Camelot: each
    /// piece counts 1 plus up to 1 more the closer it stands to its goal castle); `margin > 0`.
    Progress { margin: f32 },
}

impl MoveLimit {
    /// The outcome of `state`, a game stopped at the move limit; None for a draw.
    pub fn adjudicate<G: Game>(self, state: &G) -> Option<Outcome> {
        match self {
            MoveLimit::Draw => None,
            MoveLimit::Material { margin } => {
                let material = state.material()?.map(|m| m as f32);
                leader(&material[..seats::<G>()], margin.max(1) as f32).map(Outcome::Win)
            }
            MoveLimit::Progress { margin } => {
                leader(&state.progress()?[..seats::<G>()], margin).map(Outcome::Win)
            }
        }
    }

    /// Checks the margin (None when the setting is valid).
    pub(crate) fn problem(self) -> Option<(&'static str, &'static str)> {
        match self {
            MoveLimit::Material { margin } if !(1..=28).contains(&margin) => {
                Some(("move_limit.material.margin", "must be from 1 to 28 (Camelot's pieces)"))
            }
            MoveLimit::Progress { margin } if !(margin > 0.0 && margin.is_finite()) => {
                Some(("move_limit.progress.margin", "must be a positive number"))
            }
            _ => None,
        }
    }
}

fn seats<G: Game>() -> usize {
    G::NUM_PLAYERS.min(MAX_PLAYERS)
}

/// The seat whose measure exceeds every other seat's by at least `margin` (> 0), if there is one.
fn leader(measure: &[f32], margin: f32) -> Option<Player> {
    let (best, &top) = measure.iter().enumerate().max_by(|a, b| a.1.total_cmp(b.1))?;
    let clear = measure.iter().enumerate().all(|(seat, &m)| seat == best || top >= m + margin);
    clear.then_some(Player(best as u8))
}

#[cfg(test)]
mod tests {
    use super::*;
    use games::Camelot;
    use games::toy::TicTacToe;

    #[test]
    fn the_leader_must_be_ahead_of_everyone_by_the_margin() {
        assert_eq!(leader(&[14.0, 1.0], 2.0), Some(Player(0)));
        assert_eq!(leader(&[3.0, 12.0], 2.0), Some(Player(1)));
        assert_eq!(leader(&[6.0, 5.0], 2.0), None, "one piece is not enough with margin 2");
        assert_eq!(leader(&[6.0, 5.0], 1.0), Some(Player(0)));
        assert_eq!(leader(&[4.0, 4.0], 1.0), None, "a tie is never a win");
        assert_eq!(leader(&[4.5, 4.0], 0.5), Some(Player(0)));
        // Three players: ahead of both others, not just of the weakest.
        assert_eq!(leader(&[2.0, 7.0, 6.0], 2.0), None);
        assert_eq!(leader(&[2.0, 8.0, 6.0], 2.0), Some(Player(1)));
        assert_eq!(leader(&[0.0, 0.0, 3.0], 3.0), Some(Player(2)));
    }

    #[test]
    fn camelot_positions_are_adjudicated_by_pieces() {
        let ahead: Camelot = "camelot B W:MD4,ME4,MF4 B:MD12 cm=0,0".parse().unwrap();
        let even: Camelot = "camelot W W:MD4,ME4 B:MD12,KC12 cm=0,0".parse().unwrap();
        let material = MoveLimit::Material { margin: 2 };
        assert_eq!(material.adjudicate(&ahead), Some(Outcome::Win(Player(0))));
        assert_eq!(material.adjudicate(&even), None);
        assert_eq!(MoveLimit::Draw.adjudicate(&ahead), None);
        assert_eq!(MoveLimit::Material { margin: 3 }.adjudicate(&ahead), None);
    }

    /// Equal armies: the one that stands further forward wins a capped game under `progress`.
    #[test]
    fn progress_rewards_advanced_pieces() {
        let start = Camelot::initial();
        let progress = |margin| MoveLimit::Progress { margin };
        assert_eq!(progress(0.5).adjudicate(&start), None, "the start is symmetric");
        // The same two Men each: White's on ranks 10-11 (near Black's castle), Black's on 13-14.
        let white_ahead: Camelot = "camelot W W:MF10,MG11 B:MF13,MG14 cm=0,0".parse().unwrap();
        assert_eq!(MoveLimit::Material { margin: 1 }.adjudicate(&white_ahead), None);
        let [w, b, _] = white_ahead.progress().unwrap();
        assert!(w > b + 0.5 && w < 4.0 && b >= 2.0, "{w} {b}");
        assert_eq!(progress(0.5).adjudicate(&white_ahead), Some(Outcome::Win(Player(0))));
        assert_eq!(progress(w - b + 0.01).adjudicate(&white_ahead), None);
        assert!(MoveLimit::Progress { margin: 0.0 }.problem().is_some());
        assert!(MoveLimit::Material { margin: 0 }.problem().is_some());
        assert_eq!(progress(1.0).problem(), None);
    }

    #[test]
    fn games_without_material_are_drawn() {
        let material = MoveLimit::Material { margin: 1 };
        assert_eq!(material.adjudicate(&TicTacToe::initial()), None);
        let progress = MoveLimit::Progress { margin: 1.0 };
        assert_eq!(progress.adjudicate(&TicTacToe::initial()), None);
    }

    #[test]
    fn parses_as_a_string_or_a_table() {
        #[derive(Deserialize)]
        struct T {
            move_limit: MoveLimit,
        }
        let t: T = toml::from_str(r#"move_limit = "draw""#).unwrap();
        assert_eq!(t.move_limit, MoveLimit::Draw);
        let t: T = toml::from_str("move_limit = { material = { margin = 2 } }").unwrap();
        assert_eq!(t.move_limit, MoveLimit::Material { margin: 2 });
        assert!(toml::from_str::<T>(r#"move_limit = "material""#).is_err());
        let t: T = toml::from_str("move_limit = { progress = { margin = 1.5 } }").unwrap();
        assert_eq!(t.move_limit, MoveLimit::Progress { margin: 1.5 });
    }
}
