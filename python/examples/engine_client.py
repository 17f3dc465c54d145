"""Play camelot-zero's engine (White) with random moves (Black); the package checks every move."""
import os, random, shutil, subprocess, sys
import camelot_zero as cz

# The engine's command line: the arguments, else the binary that $CAMELOT_ZERO names, the one on
# the PATH or this checkout's release build.
built = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "target", "release", "camelot-zero")
binary = os.environ.get("CAMELOT_ZERO") or shutil.which("camelot-zero") or (built if os.path.exists(built) else None)
if not sys.argv[1:] and binary is None:
    sys.exit("no engine binary found: build it (cargo build --release), or give its command line")
command = sys.argv[1:] or [binary, "engine", "--sims", "50"]
engine = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

def send(line, until=None):
    engine.stdin.write(line + "\n")
    while until and not (answer := engine.stdout.readline()).startswith(until):
        pass
    return answer.split() if until else None

send("czp", until="czpok")
send("newgame camelot")
pos, moves = cz.Position("start", variant="camelot"), []
while not pos.is_over() and len(moves) < 200:
    if pos.to_move == "W":
        send("position startpos" + (" moves " + " ".join(moves) if moves else ""))
        move = send("go", until="bestmove")[1]
    else:
        move = random.choice(pos.legal_moves())
    pos.play(move)  # a ValueError if the move were illegal
    moves.append(move)
print(len(moves), "moves,", pos.termination() or "move cap", pos.result())
send("quit")
