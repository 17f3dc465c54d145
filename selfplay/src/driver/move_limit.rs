//! How self-play scores a game cut short by `max_moves` (the `selfplay.move_limit` setting).
//!
//! A move-limit game is not finished by the rules, so any score is an adjudication. Scoring it
//! a draw is neutral, but as a policy grows good at winning material and bad at converting it
//! (a lone Camelot piece is hard to catch, castle entries are rare), more and more games end at
//! the cap with one side far ahead, and their positions teach the value head that material does
//! not matter. `material` scores such games for the side that is clearly ahead instead, the way
//! engines adjudicate hopeless positions. Arena and ladder games always score the cap as a draw.

use games::{Game, MAX_PLAYERS, Outcome, Player};
use serde::{Deserialize, Serialize};

/// The score of a game that reaches `max_moves`. The termination stays `move-limit` either way,
/// so adjudicated games can be told apart from games finished by the rules.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum MoveLimit {
    /// A draw.
    #[default]
    Draw,
    /// The player with the most material ([`Game::material`]) wins when he is ahead of every
    /// other player by at least `margin` (at least 1); otherwise, and for games without a notion
    /// of material, a draw.
    Material { margin: u32 },
}

impl MoveLimit {
    /// The outcome of `state`, a game stopped at the move limit; None for a draw.
    pub fn adjudicate<G: Game>(self, state: &G) -> Option<Outcome> {
        match self {
            MoveLimit::Draw => None,
            MoveLimit::Material { margin } => {
                let material = state.material()?;
                leader(&material[..G::NUM_PLAYERS.min(MAX_PLAYERS)], margin).map(Outcome::Win)
            }
        }
    }
}

/// The seat whose material exceeds every other seat's by at least `margin`, if there is one.
fn leader(material: &[u32], margin: u32) -> Option<Player> {
    let (best, &top) = material.iter().enumerate().max_by_key(|&(_, m)| m)?;
    let clear = material
        .iter()
        .enumerate()
        .all(|(seat, &m)| seat == best || top >= m.saturating_add(margin.max(1)));
    clear.then_some(Player(best as u8))
}

#[cfg(test)]
mod tests {
    use super::*;
    use games::Camelot;
    use games::toy::TicTacToe;

    #[test]
    fn the_leader_must_be_ahead_of_everyone_by_the_margin() {
        assert_eq!(leader(&[14, 1], 2), Some(Player(0)));
        assert_eq!(leader(&[3, 12], 2), Some(Player(1)));
        assert_eq!(leader(&[6, 5], 2), None, "one piece is not enough with margin 2");
        assert_eq!(leader(&[6, 5], 1), Some(Player(0)));
        assert_eq!(leader(&[4, 4], 1), None, "a tie is never a win");
        assert_eq!(leader(&[4, 4], 0), None, "margin 0 acts as 1");
        // Three players: ahead of both others, not just of the weakest.
        assert_eq!(leader(&[2, 7, 6], 2), None);
        assert_eq!(leader(&[2, 8, 6], 2), Some(Player(1)));
        assert_eq!(leader(&[0, 0, 3], 3), Some(Player(2)));
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

    #[test]
    fn games_without_material_are_drawn() {
        let material = MoveLimit::Material { margin: 1 };
        assert_eq!(material.adjudicate(&TicTacToe::initial()), None);
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
    }
}
