//! What a draw is worth to each seat in the self-play searches (`selfplay.draw_score`).
//!
//! With draws scored as the fair share, Camelot self-play stalls: once the network learns that
//! contact means compulsory captures, keeping the armies apart until the move cap is a safe
//! half point for both sides, and the capped games teach nothing. Scoring a draw below the fair
//! share for **every** seat (contempt, as in chess engines; lc0's draw score) makes a stalled
//! position worse than an even fight for both players, so self-play searches prefer lines that
//! decide the game. It applies to the network's draw probability and to drawn end positions the
//! search reaches; the recorded results and the training targets are unchanged.

use games::{MAX_PLAYERS, Values};
use serde::{Deserialize, Serialize};

/// The value of a draw to each seat.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum DrawScore {
    /// The fair share, `1 / players` (the score a draw really earns).
    #[default]
    Share,
    /// This value, in `[0, 1]`, for every seat (0: a draw is as bad as a loss for everyone).
    Fixed(f32),
}

impl DrawScore {
    /// What a draw is worth to one seat of a `num_players` game.
    pub fn value(self, num_players: usize) -> f32 {
        match self {
            DrawScore::Share => 1.0 / num_players as f32,
            DrawScore::Fixed(v) => v,
        }
    }

    /// The returns of a finished game as the search should score them: a draw (every seat the
    /// same share) becomes [`DrawScore::value`] for every seat; anything else is unchanged.
    pub fn rescore(self, returns: Values, num_players: usize) -> Values {
        let seats = &returns.0[..num_players.min(MAX_PLAYERS)];
        if matches!(self, DrawScore::Share) || seats.iter().any(|&v| v != seats[0]) {
            return returns;
        }
        let mut v = [0.0; MAX_PLAYERS];
        v[..seats.len()].fill(self.value(num_players));
        Values(v)
    }

    /// Checks the value (None when the setting is valid).
    pub fn problem(self) -> Option<(&'static str, &'static str)> {
        match self {
            DrawScore::Fixed(v) if !(0.0..=1.0).contains(&v) => {
                Some(("draw_score.fixed", "must be between 0 and 1"))
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::DrawScore;
    use games::{Outcome, Player, Values};

    #[test]
    fn draws_are_rescored_and_wins_are_not() {
        let draw = Outcome::Draw.values(2);
        assert_eq!(DrawScore::Share.rescore(draw, 2), draw);
        assert_eq!(DrawScore::Fixed(0.2).rescore(draw, 2), Values([0.2, 0.2, 0.0]));
        assert_eq!(DrawScore::Fixed(0.0).rescore(Outcome::Draw.values(3), 3), Values([0.0; 3]));
        let win = Outcome::Win(Player(1)).values(3);
        assert_eq!(DrawScore::Fixed(0.0).rescore(win, 3), win);
        assert_eq!(DrawScore::Share.value(3), 1.0 / 3.0);
        assert_eq!(DrawScore::Fixed(0.25).value(2), 0.25);
    }

    #[test]
    fn the_setting_reads_from_toml_and_is_checked() {
        let read = |s: &str| {
            s.parse::<toml::Table>().and_then(|t| t["draw_score"].clone().try_into::<DrawScore>())
        };
        assert_eq!(read("draw_score = \"share\"").unwrap(), DrawScore::Share);
        assert_eq!(read("draw_score = { fixed = 0.25 }").unwrap(), DrawScore::Fixed(0.25));
        assert!(read("draw_score = \"none\"").is_err());
        assert_eq!(DrawScore::Fixed(1.5).problem().map(|p| p.0), Some("draw_score.fixed"));
        assert_eq!(DrawScore::Fixed(f32::NAN).problem().map(|p| p.0), Some("draw_score.fixed"));
        assert_eq!(DrawScore::Fixed(0.0).problem(), None);
    }
}
