//! Race3: a 3-player race in which one turn may take several actions by the same player.
//!
//! Each seat has a token on a track `0..=GOAL`; all start at 0 and seats move in order 0, 1, 2.
//! A turn is one of:
//! - **advance**, then **advance** again or **stop**: each advance moves the mover's token one
//!   step; the turn passes after the second advance or a stop (two actions by the same player,
//!   like the legs of a Camelot move);
//! - **push** one opponent two steps back (not below 0): a turn of a single action.
//!
//! The first token to reach `GOAL` wins. After [`MAX_TURNS`] turns the game is a draw
//! ([`Termination::MoveLimit`]). Policy indices: advance 0, stop 1, push the next seat 2,
//! push the seat after that 3 (relative to the mover, so the index means the same for every seat).
//!
//! Known positions: a token at `GOAL - 1` wins in one action, at `GOAL - 2` in two actions of
//! the same turn; a player whose next opponent stands at `GOAL - 1` must push that opponent.

use std::fmt;

use crate::game::{Game, GameOver, Outcome, Player, Termination};

use super::ToyError;
use crate::seed::splitmix64;

/// The square a token must reach to win.
pub const GOAL: u8 = 5;
/// Turns after which the game is drawn.
pub const MAX_TURNS: u16 = 60;
/// How many steps a push sends an opponent back.
const PUSH: u8 = 2;
/// Advances allowed in one turn.
const MAX_ADVANCES: u8 = 2;

/// One action of Race3.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RaceAction {
    /// Move the mover's token one step forward.
    Advance,
    /// End the turn after one advance.
    Stop,
    /// Push the opponent `offset` seats after the mover (1 or 2) back; ends the turn.
    Push(u8),
}

/// A Race3 position: token squares by seat, the mover, and the advances made this turn.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Race3 {
    tokens: [u8; 3],
    mover: u8,
    /// Advances made so far in the current turn (0 at the start of a turn).
    advances: u8,
    /// Completed turns.
    turns: u16,
    winner: Option<u8>,
}

impl Race3 {
    /// A position at the start of `to_move`'s turn with the tokens on the given squares.
    pub fn new(tokens: [u8; 3], to_move: Player) -> Result<Self, ToyError> {
        if tokens.iter().any(|&t| t >= GOAL) || to_move.index() >= 3 {
            return Err(ToyError::BadRace(format!(
                "tokens {tokens:?} must be below {GOAL} and the mover below 3, got {}",
                to_move.0
            )));
        }
        Ok(Race3 { tokens, mover: to_move.0, advances: 0, turns: 0, winner: None })
    }

    /// The token squares by seat.
    pub fn tokens(&self) -> [u8; 3] {
        self.tokens
    }

    /// Advances made so far in the current turn.
    pub fn advances(&self) -> u8 {
        self.advances
    }

    fn end_turn(&mut self) {
        self.mover = (self.mover + 1) % 3;
        self.advances = 0;
        self.turns += 1;
    }
}

impl Game for Race3 {
    type Action = RaceAction;

    const NAME: &'static str = "race3";
    const NUM_PLAYERS: usize = 3;
    const NUM_ACTIONS: usize = 4;

    fn initial() -> Self {
        Race3 { tokens: [0; 3], mover: 0, advances: 0, turns: 0, winner: None }
    }

    fn to_move(&self) -> Player {
        Player(self.mover)
    }

    fn legal_actions(&self, out: &mut Vec<RaceAction>) {
        out.clear();
        if self.outcome().is_some() {
            return;
        }
        out.push(RaceAction::Advance);
        if self.advances == 0 {
            out.extend([RaceAction::Push(1), RaceAction::Push(2)]);
        } else {
            out.push(RaceAction::Stop);
        }
        out.sort_by_key(|&a| self.action_index(a));
    }

    fn play(&mut self, action: RaceAction) {
        debug_assert!(self.is_legal(action), "illegal action {action:?} in {self}");
        match action {
            RaceAction::Advance => {
                let me = self.mover as usize;
                self.tokens[me] += 1;
                self.advances += 1;
                if self.tokens[me] >= GOAL {
                    self.winner = Some(self.mover);
                } else if self.advances >= MAX_ADVANCES {
                    self.end_turn();
                }
            }
            RaceAction::Stop => self.end_turn(),
            RaceAction::Push(offset) => {
                let target = (self.mover as usize + offset as usize) % 3;
                self.tokens[target] = self.tokens[target].saturating_sub(PUSH);
                self.end_turn();
            }
        }
    }

    fn outcome(&self) -> Option<GameOver> {
        match self.winner {
            Some(w) => Some(GameOver {
                outcome: Outcome::Win(Player(w)),
                termination: Termination::Castle,
            }),
            None if self.turns >= MAX_TURNS => {
                Some(GameOver { outcome: Outcome::Draw, termination: Termination::MoveLimit })
            }
            None => None,
        }
    }

    fn action_index(&self, action: RaceAction) -> usize {
        match action {
            RaceAction::Advance => 0,
            RaceAction::Stop => 1,
            RaceAction::Push(offset) => 1 + offset as usize,
        }
    }

    fn action_from_index(&self, index: usize) -> Option<RaceAction> {
        match index {
            0 => Some(RaceAction::Advance),
            1 => Some(RaceAction::Stop),
            2 | 3 => Some(RaceAction::Push(index as u8 - 1)),
            _ => None,
        }
    }

    fn hash(&self) -> u64 {
        let [a, b, c] = self.tokens.map(u64::from);
        let packed = a
            | b << 8
            | c << 16
            | u64::from(self.mover) << 24
            | u64::from(self.advances) << 28
            | u64::from(self.turns) << 32
            | u64::from(self.winner.map_or(0, |w| w + 1)) << 48;
        splitmix64(packed)
    }

    fn action_to_string(&self, action: RaceAction) -> String {
        match action {
            RaceAction::Advance => "advance".to_string(),
            RaceAction::Stop => "stop".to_string(),
            RaceAction::Push(offset) => format!("push{}", (self.mover + offset) % 3),
        }
    }
}

impl fmt::Display for Race3 {
    /// E.g. `race3 tokens=0,4,1 mover=2 advances=1 turns=7`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [a, b, c] = self.tokens;
        write!(
            f,
            "race3 tokens={a},{b},{c} mover={} advances={} turns={}",
            self.mover, self.advances, self.turns
        )
    }
}

impl fmt::Debug for Race3 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Values;
    use RaceAction::*;

    fn legal(g: &Race3) -> Vec<RaceAction> {
        let mut v = Vec::new();
        g.legal_actions(&mut v);
        v
    }

    #[test]
    fn random_games_keep_the_contract() {
        super::super::check::random_games::<Race3>(300, 3 * MAX_TURNS as usize);
    }

    #[test]
    fn a_turn_is_advance_then_advance_or_stop() {
        let mut g = Race3::initial();
        assert_eq!(legal(&g), vec![Advance, Push(1), Push(2)]);
        g.play(Advance);
        assert_eq!(g.to_move(), Player(0), "the same player moves again");
        assert_eq!(legal(&g), vec![Advance, Stop]);
        g.play(Advance);
        assert_eq!(g.to_move(), Player(1), "two advances end the turn");
        assert_eq!(g.tokens(), [2, 0, 0]);
        g.play(Advance);
        g.play(Stop);
        assert_eq!(g.to_move(), Player(2));
        assert_eq!(g.tokens(), [2, 1, 0]);
    }

    #[test]
    fn a_push_sends_an_opponent_back_and_ends_the_turn() {
        let mut g = Race3::new([0, 4, 1], Player(0)).unwrap();
        g.play(Push(1));
        assert_eq!(g.tokens(), [0, 2, 1]);
        assert_eq!(g.to_move(), Player(1));
        g.play(Push(2));
        // Seat 1 pushed seat (1 + 2) % 3 = 0, which stays at 0; seat 2 is untouched.
        assert_eq!(g.tokens(), [0, 2, 1]);
        assert_eq!(g.to_move(), Player(2));
    }

    #[test]
    fn reaching_the_goal_wins_for_that_seat() {
        let mut g = Race3::new([0, 0, GOAL - 2], Player(2)).unwrap();
        g.play(Advance);
        assert!(g.outcome().is_none());
        g.play(Advance);
        assert_eq!(g.outcome().unwrap().outcome, Outcome::Win(Player(2)));
        assert_eq!(g.returns(), Some(Values([0.0, 0.0, 1.0])));
        assert!(legal(&g).is_empty());
    }

    #[test]
    fn the_turn_cap_draws() {
        let mut g = Race3::initial();
        for _ in 0..MAX_TURNS {
            assert!(g.outcome().is_none());
            g.play(Push(1));
        }
        let over = g.outcome().unwrap();
        assert_eq!(over.outcome, Outcome::Draw);
        assert_eq!(over.termination, Termination::MoveLimit);
        assert_eq!(g.returns(), Some(Values([1.0 / 3.0; 3])));
    }

    #[test]
    fn bad_positions_are_errors() {
        assert!(Race3::new([GOAL, 0, 0], Player(0)).is_err());
        assert!(Race3::new([0, 0, 0], Player(3)).is_err());
    }

    #[test]
    fn push_indices_are_relative_to_the_mover() {
        let g = Race3::new([1, 1, 1], Player(2)).unwrap();
        assert_eq!(g.action_index(Push(1)), 2);
        assert_eq!(g.action_to_string(Push(1)), "push0");
        assert_eq!(g.action_from_index(3), Some(Push(2)));
        assert_eq!(g.action_from_index(4), None);
    }
}
