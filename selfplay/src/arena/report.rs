//! The results of a match: wins, draws and losses per player and per seat, scores, and Elo.
//!
//! A game is won by the seat with the highest score share when it is the only one (Camelot and
//! Tri-Camelot have a single winner); otherwise (a draw, or the move cap) it is a draw for every
//! seat. A player's **score** is `(wins + draws / players) / games`, the mean of its score
//! shares: ½ is even in Camelot, ⅓ in Tri-Camelot.
//!
//! **Elo.** Two players: the Elo difference of the first over the second from its score, with the
//! 95% interval of [`super::elo`]. Three players: each player's score share, and for every pair
//! the **head-to-head** Elo from their placements in each game: 1 to the one placed higher (the
//! winner over a loser), ½ when they are placed equal (both lost to the third, or a draw), and
//! the same interval math over those per-game pair scores.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::elo::{EloInterval, elo_interval};
use super::game::ArenaGame;

/// Wins, draws and losses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

impl Tally {
    /// Games counted.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// `(wins + draws / players) / games`; `None` without games.
    pub fn score(&self, players: usize) -> Option<f64> {
        let n = self.games();
        (n > 0)
            .then(|| (f64::from(self.wins) + f64::from(self.draws) / players as f64) / f64::from(n))
    }

    fn add(&mut self, r: GameResult) {
        match r {
            GameResult::Win => self.wins += 1,
            GameResult::Draw => self.draws += 1,
            GameResult::Loss => self.losses += 1,
        }
    }
}

/// `w/d/l`.
impl std::fmt::Display for Tally {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}/{}", self.wins, self.draws, self.losses)
    }
}

/// One seat's result in one game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    Win,
    Draw,
    Loss,
}

/// The result of `seat` in a game with per-seat score shares `result`.
pub fn seat_result(result: &[f32], seat: usize) -> GameResult {
    let max = result.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let leaders = result.iter().filter(|&&r| r == max).count();
    match (leaders, result.get(seat)) {
        (1, Some(&r)) if r == max => GameResult::Win,
        (1, _) => GameResult::Loss,
        _ => GameResult::Draw,
    }
}

/// One player's line.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayerLine {
    pub name: String,
    pub overall: Tally,
    /// By seat index.
    pub by_seat: Vec<Tally>,
    /// `(wins + draws / players) / games`.
    pub score: f64,
}

/// Player `a` against player `b`.
#[derive(Clone, Debug, PartialEq)]
pub struct PairLine {
    pub a: usize,
    pub b: usize,
    /// `a`'s Elo over `b` (head-to-head placements for three players).
    pub elo: EloInterval,
}

/// Everything the arena reports about a match.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchReport {
    pub games: usize,
    /// Seat names in seat order (White, Black; Blue, Red, Green).
    pub seat_names: Vec<String>,
    pub players: Vec<PlayerLine>,
    /// Every pair `a < b`.
    pub pairs: Vec<PairLine>,
    /// Games by termination name.
    pub terminations: BTreeMap<String, u32>,
    /// Mean complete moves per game (openings included).
    pub mean_moves: f64,
}

/// Per-game score of player `a` against player `b`: 1 placed higher, ½ equal, 0 lower.
pub fn head_to_head(game: &ArenaGame, a: usize, b: usize) -> f64 {
    let (ra, rb) = (game.score_of(a), game.score_of(b));
    if ra > rb {
        1.0
    } else if ra < rb {
        0.0
    } else {
        0.5
    }
}

impl MatchReport {
    /// The report of `games` between the players `names` (by player index).
    pub fn new(names: &[String], seat_names: &[&str], games: &[ArenaGame]) -> Self {
        let n = names.len();
        let mut players: Vec<PlayerLine> = names
            .iter()
            .map(|name| PlayerLine {
                name: name.clone(),
                overall: Tally::default(),
                by_seat: vec![Tally::default(); n],
                score: 0.0,
            })
            .collect();
        let mut terminations = BTreeMap::new();
        for g in games {
            *terminations.entry(g.termination.as_str().to_string()).or_insert(0) += 1;
            for (seat, &p) in g.seating.iter().enumerate() {
                let Some(line) = players.get_mut(p) else { continue };
                let r = seat_result(&g.result, seat);
                line.overall.add(r);
                if let Some(t) = line.by_seat.get_mut(seat) {
                    t.add(r);
                }
            }
        }
        for line in &mut players {
            line.score = line.overall.score(n).unwrap_or(0.0);
        }
        let mut pairs = Vec::new();
        for a in 0..n {
            for b in a + 1..n {
                let scores: Vec<f64> = games.iter().map(|g| head_to_head(g, a, b)).collect();
                if let Some(elo) = elo_interval(&scores) {
                    pairs.push(PairLine { a, b, elo });
                }
            }
        }
        let moves: usize = games.iter().map(|g| g.moves.len()).sum();
        MatchReport {
            games: games.len(),
            seat_names: seat_names.iter().map(|s| s.to_string()).collect(),
            players,
            pairs,
            terminations,
            mean_moves: if games.is_empty() { 0.0 } else { moves as f64 / games.len() as f64 },
        }
    }

    /// The results as a plain-text table.
    pub fn table(&self) -> String {
        let n = self.players.len();
        let letter = |i: usize| (b'A' + i as u8) as char;
        let width = self.players.iter().map(|p| p.name.len()).max().unwrap_or(0).max(6);
        let mut s = String::new();
        let ends: Vec<String> = self.terminations.iter().map(|(k, v)| format!("{k} {v}")).collect();
        let _ = writeln!(
            s,
            "{} games, mean {:.1} moves ({})",
            self.games,
            self.mean_moves,
            ends.join(", ")
        );
        let _ = write!(s, "   {:width$}  games  wins draws losses  score", "player");
        for seat in &self.seat_names {
            let _ = write!(s, "  {:>12}", format!("{seat} w/d/l"));
        }
        s.push('\n');
        for (i, p) in self.players.iter().enumerate() {
            let t = p.overall;
            let _ = write!(
                s,
                "{}  {:width$}  {:>5}  {:>4} {:>5} {:>6}  {:.3}",
                letter(i),
                p.name,
                t.games(),
                t.wins,
                t.draws,
                t.losses,
                p.score
            );
            for seat in &p.by_seat {
                let _ = write!(s, "  {:>12}", seat.to_string());
            }
            s.push('\n');
        }
        let kind = if n == 2 { "Elo" } else { "head-to-head Elo" };
        for pair in &self.pairs {
            let e = &pair.elo;
            let _ = writeln!(
                s,
                "{kind} {} - {}: {} (95% CI; pair score {:.3} ± {:.3} over {} games)",
                letter(pair.a),
                letter(pair.b),
                e,
                e.score,
                e.score_margin(),
                e.games
            );
        }
        if n > 2 {
            let _ = writeln!(s, "(an even score share is {:.3})", 1.0 / n as f64);
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use games::Termination;

    fn game(id: u64, seating: Vec<usize>, result: Vec<f32>) -> ArenaGame {
        let termination = if result.iter().all(|&r| r == result[0]) {
            Termination::MoveLimit
        } else {
            Termination::Castle
        };
        ArenaGame {
            game_id: id,
            seed: 0,
            seating,
            start_position: String::new(),
            moves: vec!["x".into(); 10],
            result,
            termination,
        }
    }

    #[test]
    fn results_by_seat() {
        assert_eq!(seat_result(&[1.0, 0.0], 0), GameResult::Win);
        assert_eq!(seat_result(&[1.0, 0.0], 1), GameResult::Loss);
        assert_eq!(seat_result(&[0.5, 0.5], 1), GameResult::Draw);
        let third = 1.0 / 3.0;
        assert_eq!(seat_result(&[third; 3], 2), GameResult::Draw);
        assert_eq!(seat_result(&[0.0, 0.0, 1.0], 0), GameResult::Loss);
    }

    #[test]
    fn two_player_tallies_scores_and_elo() {
        // A wins as White and as Black, then a draw, then B wins as White.
        let games = [
            game(0, vec![0, 1], vec![1.0, 0.0]),
            game(1, vec![1, 0], vec![0.0, 1.0]),
            game(2, vec![0, 1], vec![0.5, 0.5]),
            game(3, vec![1, 0], vec![1.0, 0.0]),
        ];
        let names = vec!["a".to_string(), "b".to_string()];
        let r = MatchReport::new(&names, &["White", "Black"], &games);
        assert_eq!(r.players[0].overall, Tally { wins: 2, draws: 1, losses: 1 });
        assert_eq!(
            r.players[0].by_seat,
            [Tally { wins: 1, draws: 1, losses: 0 }, Tally { wins: 1, draws: 0, losses: 1 }]
        );
        assert_eq!(r.players[1].overall, Tally { wins: 1, draws: 1, losses: 2 });
        assert_eq!(r.players[0].score, 0.625);
        assert_eq!(r.pairs.len(), 1);
        assert_eq!(r.pairs[0].elo.score, 0.625);
        assert!((r.pairs[0].elo.elo.0 - 88.74).abs() < 0.01);
        assert_eq!(r.terminations["castle"], 3);
        let table = r.table();
        assert!(table.contains("Elo A - B: +89 ["), "{table}");
        assert!(table.contains("0.625"), "{table}");
    }

    #[test]
    fn three_players_get_score_shares_and_pairwise_placements() {
        // 6 games, one per seating: player 0 wins 3, players 1 and 2 one each, one draw.
        let t = 1.0 / 3.0;
        let games = [
            game(0, vec![0, 1, 2], vec![1.0, 0.0, 0.0]),
            game(1, vec![0, 2, 1], vec![1.0, 0.0, 0.0]),
            game(2, vec![1, 0, 2], vec![0.0, 1.0, 0.0]),
            game(3, vec![1, 2, 0], vec![1.0, 0.0, 0.0]),
            game(4, vec![2, 0, 1], vec![t, t, t]),
            game(5, vec![2, 1, 0], vec![1.0, 0.0, 0.0]),
        ];
        let names: Vec<String> = ["a", "b", "c"].iter().map(|s| s.to_string()).collect();
        let r = MatchReport::new(&names, &["Blue", "Red", "Green"], &games);
        assert_eq!(r.players[0].overall, Tally { wins: 3, draws: 1, losses: 2 });
        assert_eq!(r.players[1].overall, Tally { wins: 1, draws: 1, losses: 4 });
        assert_eq!(r.players[2].overall, Tally { wins: 1, draws: 1, losses: 4 });
        assert!((r.players[0].score - (3.0 + 1.0 / 3.0) / 6.0).abs() < 1e-12);
        let shares: f64 = r.players.iter().map(|p| p.score).sum();
        assert!((shares - 1.0).abs() < 1e-12, "score shares add up to 1");
        assert_eq!(
            r.pairs.iter().map(|p| (p.a, p.b)).collect::<Vec<_>>(),
            [(0, 1), (0, 2), (1, 2)]
        );
        // a vs b: a above b in games 0, 1, 2 (a won), b above a in game 3, equal in 4 (draw)
        // and 5 (c won): (3 + 1) / 6.
        assert!((r.pairs[0].elo.score - 4.0 / 6.0).abs() < 1e-12);
        assert!((r.pairs[2].elo.score - 0.5).abs() < 1e-12);
        let table = r.table();
        assert!(table.contains("head-to-head Elo A - C"), "{table}");
        assert!(table.contains("Green w/d/l"), "{table}");
    }
}
