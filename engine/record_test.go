package engine

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// mustRecord parses a record that the test knows to be valid.
func mustRecord(tb testing.TB, text string) *Record {
	tb.Helper()
	r, err := ParseRecord(text)
	require.NoError(tb, err, "record:\n%s", text)
	return r
}

// squareTag is the Layout tag of the square board.
const squareTag = `[Layout "` + SquareString + `"]` + "\n"

func TestParseRecord(t *testing.T) {
	tests := []struct {
		name   string
		in     string
		first  Color
		rules  Rules
		tags   []Tag
		moves  []string
		result string
	}{
		{"Layout alone", squareTag, Red, Basic, nil, nil, ""},
		{"defaults can be given", squareTag + `[First "Red"][Scoring "basic"]`, Red, Basic, nil, nil, ""},
		{"First and Scoring in any case", squareTag + "[First \"BLACK\"]\n[Scoring \"Full\"]\n", Black, Full, nil, nil, ""},
		{"other tags in order", `[Game "Kulami"]` + "\n" + `[Red "alice"]` + "\n" + squareTag + `[Black "bob"]` + "\n" + `[Date "2026.11.22"]`,
			Red, Basic, []Tag{{"Game", "Kulami"}, {"Red", "alice"}, {"Black", "bob"}, {"Date", "2026.11.22"}}, nil, ""},
		{"blanks inside a tag", squareTag + "[ \tRed\t \"alice\"  ]", Red, Basic, []Tag{{"Red", "alice"}}, nil, ""},
		{"empty value", squareTag + `[Site ""]`, Red, Basic, []Tag{{"Site", ""}}, nil, ""},
		{"escapes", squareTag + `[Event "say \"hi\" \\ C:\dir\\"]`, Red, Basic, []Tag{{"Event", `say "hi" \ C:\dir\`}}, nil, ""},
		{"brackets and semicolons in a value", squareTag + `[Event "[a]; {b}"]`, Red, Basic, []Tag{{"Event", "[a]; {b}"}}, nil, ""},
		{"moves", squareTag + "\nD4 D7 F7 F2\n", Red, Basic, nil, []string{"D4", "D7", "F7", "F2"}, ""},
		{"moves as written", squareTag + "d4 D7 f7", Red, Basic, nil, []string{"d4", "D7", "f7"}, ""},
		{"move numbers", squareTag + "1. D4 D7 2. F7 2... F2 3.A2 3...H2 12. B2", Red, Basic, nil,
			[]string{"D4", "D7", "F7", "F2", "A2", "H2", "B2"}, ""},
		{"only move numbers", squareTag + "1.5. 2... 3.4...D4", Red, Basic, nil, []string{"D4"}, ""},
		{"line comment", squareTag + "D4 ; D7 F7\nF2", Red, Basic, nil, []string{"D4", "F2"}, ""},
		{"comment at the end", squareTag + "D4;no space", Red, Basic, nil, []string{"D4"}, ""},
		{"brace comment", squareTag + "D4 {D7 [Red \"x\"] F7} F2", Red, Basic, nil, []string{"D4", "F2"}, ""},
		{"brace comment in a token", squareTag + "D4{x}D7", Red, Basic, nil, []string{"D4", "D7"}, ""},
		{"brace comment over lines", squareTag + "D4 {one\ntwo\n} F2", Red, Basic, nil, []string{"D4", "F2"}, ""},
		{"comments between tags", "; a game\n" + `{ from the club }[Red "alice"]` + "\n" + squareTag, Red, Basic, []Tag{{"Red", "alice"}}, nil, ""},
		{"result 1-0", squareTag + "1. D4 D7 1-0", Red, Basic, nil, []string{"D4", "D7"}, "1-0"},
		{"result 0-1", squareTag + "1. D4 0-1\n", Red, Basic, nil, []string{"D4"}, "0-1"},
		{"result draw", squareTag + "1. D4 D7 1/2-1/2 ; agreed", Red, Basic, nil, []string{"D4", "D7"}, "1/2-1/2"},
		{"result unknown", squareTag + "*", Red, Basic, nil, nil, "*"},
		{"a result word inside the moves is a move", squareTag + "D4 * D7", Red, Basic, nil, []string{"D4", "*", "D7"}, ""},
		{"only the last result word", squareTag + "D4 1-0 0-1", Red, Basic, nil, []string{"D4", "1-0"}, "0-1"},
		{"CRLF and tabs", strings.ReplaceAll(squareTag, "\n", "\r\n") + "1.\tD4\r\nD7\r\n", Red, Basic, nil, []string{"D4", "D7"}, ""},
		{"byte-order mark", "\ufeff" + squareTag + "D4", Red, Basic, nil, []string{"D4"}, ""},
		{"tags on one line", `[Red "a"] [Layout "` + SquareString + `"] [First "Black"]`, Black, Basic, []Tag{{"Red", "a"}}, nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := mustRecord(t, tt.in)
			require.NotNil(t, r.Layout)
			assert.True(t, r.Layout.Equal(Square()))
			assert.Equal(t, tt.first, r.First)
			assert.Equal(t, tt.rules, r.Rules)
			assert.Equal(t, tt.tags, r.Tags)
			if tt.moves == nil {
				assert.Empty(t, r.Moves)
			} else {
				assert.Equal(t, tt.moves, r.Moves)
			}
			assert.Equal(t, tt.result, r.Result)
		})
	}
}

func TestParseRecordRefuses(t *testing.T) {
	tests := []struct {
		name string
		in   string
		line int    // the line the message names, 0 for none
		want string // the rest of the message
	}{
		{"empty", "", 0, "there is no Layout tag; a record needs [Layout \"...\"]"},
		{"no Layout", "[Red \"alice\"]\n1. D4 D7\n", 0, "there is no Layout tag"},
		{"Layout in lower case is another tag", "[layout \"" + SquareString + "\"]\n", 0, "there is no Layout tag"},
		{"bad Layout", "[Game \"Kulami\"]\n[Layout \"aab/aab\"]\n", 2, "Layout tag: bad layout: the panels are"},
		{"empty Layout", "\n\n[Layout \"\"]", 3, "Layout tag: bad layout: the layout string is empty"},
		{"bad First", squareTag + "[First \"White\"]", 2, `First tag: colour must be Red or Black, not "White"`},
		{"First as a word", squareTag + "[First \"1\"]", 2, `First tag: colour must be Red or Black, not "1"`},
		{"bad Scoring", squareTag + "\n[Scoring \"level2\"]", 3, `Scoring tag: rule set must be basic, area, lines or full, not "level2"`},
		{"tag without ']'", squareTag + "[Red \"alice\"\nD4", 2, "the tag Red is not closed with ']'"},
		{"tag without closing quote", squareTag + "[Red \"alice]\n", 2, "the value of the tag Red has no closing '\"'"},
		{"tag cut off", squareTag + "[Red \"ali", 2, "the value of the tag Red has no closing '\"'"},
		{"tag without a value", squareTag + "[Red alice]", 2, "the tag Red needs a value in double quotes, as in [Red \"...\"]"},
		{"tag without a name", squareTag + "[\"alice\"]", 2, "a tag must start with a name, as in [Red \"alice\"]"},
		{"lone '['", squareTag + "D4 D7\n[", 3, "a tag after the moves; tags come before the first move"},
		{"unclosed comment", squareTag + "D4\n{ a comment\nthat never ends\n", 3, "the comment that starts with '{' is never closed with '}'"},
		{"'}' alone", squareTag + "D4 }", 2, "'}' without a '{' before it"},
		{"'}' after a move number", squareTag + "1.}", 2, "'}' without a '{' before it"},
		{"tag after a move number after a move", squareTag + "D4 2.[Red \"x\"]", 2, "a tag after the moves"},
		{"tag after the moves", squareTag + "1. D4 D7\n[Red \"alice\"]", 3, "a tag after the moves; tags come before the first move"},
		{"duplicated tag", "[Red \"alice\"]\n" + squareTag + "[Red \"bob\"]", 3, "the tag Red appears twice"},
		{"duplicated Layout", squareTag + squareTag, 2, "the tag Layout appears twice"},
		{"duplicated First", squareTag + "[First \"Red\"]\n\n[First \"Red\"]", 4, "the tag First appears twice"},
		{"line counted across a comment", squareTag + "{\n\n}\n[Red \"a\"]\n[Red \"b\"]", 6, "the tag Red appears twice"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := ParseRecord(tt.in)
			require.ErrorIs(t, err, ErrRecord)
			assert.Nil(t, r)
			want := "bad record: " + tt.want
			if tt.line > 0 {
				want = fmt.Sprintf("bad record: line %d: %s", tt.line, tt.want)
			}
			assert.True(t, strings.HasPrefix(err.Error(), want), "got  %q\nwant %q…", err, want)
		})
	}
}

func TestRecordString(t *testing.T) {
	r := NewRecord(mustLayout(t, "zzyxxwvv/zzyxxwvv/zzyuuuvv/tssrrqqp/tssrrqqp/oonnnmll/ookjjmll/ookjjmll"), Black, Area)
	r.SetTag("Red", "Ann \"the hammer\" O\\Neil")
	r.SetTag("Game", "Kulami") // not first: stays where it is
	r.SetTag("Note", "two\nlines\r\nand\rmore")
	r.Moves = []string{"d4", "D7", "f7"}
	r.Result = "*"
	want := squareTag + `[First "Black"]
[Scoring "area"]
[Red "Ann \"the hammer\" O\\Neil"]
[Game "Kulami"]
[Note "two lines and more"]

1. D4 D7 2. F7 *
`
	assert.Equal(t, want, r.String())

	// A leading Game tag stays first.
	r.Tags = []Tag{{"Game", "Kulami"}, {"Red", "alice"}}
	r.Moves, r.Result = nil, ""
	assert.Equal(t, "[Game \"Kulami\"]\n"+squareTag+"[First \"Black\"]\n[Scoring \"area\"]\n[Red \"alice\"]\n\n", r.String())
}

func TestRecordStringWrapsLines(t *testing.T) {
	_, moves := findGame(t, Square(), func(p *Position) bool { return p.Ply() == MaxPly })
	r := NewRecord(Square(), Red, Basic)
	r.Moves = moves
	r.Result = "1/2-1/2"
	text := r.String()
	body := text[strings.Index(text, "\n\n")+2:]
	lines := strings.Split(strings.TrimSuffix(body, "\n"), "\n")
	require.Greater(t, len(lines), 1)
	var words []string
	for i, line := range lines {
		assert.LessOrEqual(t, len(line), 79, "line %d: %q", i+1, line)
		if i < len(lines)-1 {
			// A line is broken only where the next word would not fit.
			next := strings.Fields(lines[i+1])[0]
			assert.Greater(t, len(line)+1+len(next), 79, "line %d could hold %q", i+1, next)
		}
		words = append(words, strings.Fields(line)...)
	}
	// A move number before each pair of moves, then the result word.
	var want []string
	for i, m := range moves {
		if i%2 == 0 {
			want = append(want, strconv.Itoa(i/2+1)+".")
		}
		want = append(want, m)
	}
	assert.Equal(t, append(want, "1/2-1/2"), words)
}

func TestRecordTags(t *testing.T) {
	r := NewRecord(Square(), Red, Basic)
	_, ok := r.Tag("Red")
	assert.False(t, ok)
	r.SetTag("Red", "alice")
	r.SetTag("Black", "bob")
	r.SetTag("Red", "carol")
	v, ok := r.Tag("Red")
	assert.True(t, ok)
	assert.Equal(t, "carol", v)
	assert.Equal(t, []Tag{{"Red", "carol"}, {"Black", "bob"}}, r.Tags, "SetTag replaces in place")
}

func TestRecordText(t *testing.T) {
	in := mustRecord(t, squareTag+`[Red "alice"]`+"\n1. D4 D7\n")
	text, err := in.MarshalText()
	require.NoError(t, err)
	assert.Equal(t, in.String(), string(text))
	var out Record
	require.NoError(t, out.UnmarshalText(text))
	assert.Equal(t, in.String(), out.String())

	err = out.UnmarshalText([]byte("[Red \"alice\"]"))
	require.ErrorIs(t, err, ErrRecord)
	assert.Equal(t, in.String(), out.String(), "a failed UnmarshalText leaves the record alone")
}

// TestGoldenRecords checks how the records in testdata/records are
// written: each NAME.txt is parsed and written, which must give NAME.golden;
// a golden file is written the same way again.
func TestGoldenRecords(t *testing.T) {
	inputs, err := filepath.Glob(filepath.Join("testdata", "records", "*.txt"))
	require.NoError(t, err)
	require.NotEmpty(t, inputs)
	for _, in := range inputs {
		name := strings.TrimSuffix(filepath.Base(in), ".txt")
		t.Run(name, func(t *testing.T) {
			b, err := os.ReadFile(in)
			require.NoError(t, err)
			r := mustRecord(t, string(b))
			got := r.String()
			golden(t, filepath.Join("records", name+".golden"), got)
			assert.Equal(t, got, mustRecord(t, got).String(), "a written record is written the same way again")
			_, err = r.Replay()
			assert.NoError(t, err, "the moves are legal")
		})
	}
}

// goldenGames are seeded random games kept as records in testdata/games.
var goldenGames = []struct {
	name   string
	layout func() *Layout
	first  Color
	rules  Rules
	seed   uint64
	full   bool // all 56 marbles placed, or ended early
}{
	{"square-full", Square, Red, Full, 0, true},
	{"square-early", Square, Black, Basic, 1, false},
	{"irregular-example-full", func() *Layout { return MustParseLayout(irregularExample) }, Red, Area, 4, true},
	{"irregular-example-early", func() *Layout { return MustParseLayout(irregularExample) }, Black, Full, 0, false},
	{"random-square-7-full", func() *Layout { return RandomSquare(7) }, Black, Lines, 7, true},
	{"random-irregular-7-early", func() *Layout { return RandomIrregular(7) }, Red, Full, 2, false},
}

// resultTag writes a score as the Result tag of RECORD.md: "Red 35-29",
// the winner's total first, or "Draw 30-30".
func resultTag(s Score) string {
	c, ok := s.Winner()
	if !ok {
		return fmt.Sprintf("Draw %d-%d", s[Red].Total, s[Black].Total)
	}
	return fmt.Sprintf("%s %d-%d", c.Title(), s[c].Total, s[c.Other()].Total)
}

// TestGoldenGames writes seeded random games as records and compares them
// with testdata/games; it checks that each golden record replays to an
// ended game whose score is its Result tag, so a change of the random
// generators, of the record format or of the rules shows here.
func TestGoldenGames(t *testing.T) {
	for _, g := range goldenGames {
		t.Run(g.name, func(t *testing.T) {
			l := g.layout()
			end, moves := seededGame(t, l, g.first, g.seed)
			require.Equal(t, g.full, end.Ply() == MaxPly, "%d moves", end.Ply())
			r := NewRecord(l, g.first, g.rules)
			r.SetTag("Game", "Kulami")
			r.SetTag("Seed", strconv.FormatUint(g.seed, 10))
			r.SetTag("Result", resultTag(end.Score(g.rules)))
			r.Moves = moves
			golden(t, filepath.Join("games", g.name+".txt"), r.String())

			b, err := os.ReadFile(filepath.Join("testdata", "games", g.name+".txt"))
			require.NoError(t, err)
			back := mustRecord(t, string(b))
			p, err := back.Replay()
			require.NoError(t, err)
			assert.True(t, p.IsOver())
			result, _ := back.Tag("Result")
			assert.Equal(t, result, resultTag(p.Score(back.Rules)))
		})
	}
}

func TestReplay(t *testing.T) {
	// Square layout, as drawn in TestPlayMove.
	_, earlyMoves := findGame(t, Square(), func(p *Position) bool { return p.Ply() < MaxPly })
	tests := []struct {
		name  string
		moves string
		ply   int    // of the illegal move, 0 if none
		code  string // its reason
	}{
		{"legal", "1. D4 D1 2. A1 A4 3. E4", 0, ""},
		{"lower case", "d4 d1 a1", 0, ""},
		{"syntax", "D4 D1 zz A4", 3, "syntax"},
		{"off-board", "D4 I4", 2, "off-board"},
		{"occupied", "D4 D1 A1 A4 D4", 5, "occupied"},
		{"not-in-line", "d4 e5", 2, "not-in-line"},
		{"same-panel", "D4 D1 A1 A4 A5", 5, "same-panel"},
		{"previous-panel", "D4 D1 D5", 3, "previous-panel"},
		{"stops at the first illegal move", "D4 E5 zz", 2, "not-in-line"},
		{"game-over", strings.Join(earlyMoves, " ") + " zz", len(earlyMoves) + 1, "game-over"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := mustRecord(t, squareTag+tt.moves)
			p, err := r.Replay()

			// The position is the one before the illegal move, or the end.
			n := len(r.Moves)
			if tt.ply > 0 {
				n = tt.ply - 1
			}
			want := NewPosition(Square(), Red)
			mustPlay(t, &want, r.Moves[:n]...)
			assert.Equal(t, want, p)
			if tt.ply == 0 {
				require.NoError(t, err)
				return
			}
			var me *MoveError
			require.ErrorAs(t, err, &me)
			assert.Equal(t, tt.ply, me.Ply)
			assert.Equal(t, r.Moves[tt.ply-1], me.Move, "the move as written")
			assert.Equal(t, tt.code, reasonCode(t, err))
			assert.True(t, strings.HasPrefix(err.Error(), fmt.Sprintf("move %d (%s): ", tt.ply, me.Move)), err.Error())
			assert.Equal(t, me.Err, errors.Unwrap(err))
		})
	}
}

// FuzzParseRecord checks that every record that parses is written so that
// it parses back to the same record (with the moves in upper case and line
// breaks in tag values as spaces, as Record.String says) and is written
// the same way again, and that every other text is refused with ErrRecord
// and a message naming a line of the text.
func FuzzParseRecord(f *testing.F) {
	for _, dir := range []string{"records", "games"} {
		files, err := filepath.Glob(filepath.Join("testdata", dir, "*"))
		require.NoError(f, err)
		for _, name := range files {
			b, err := os.ReadFile(name)
			require.NoError(f, err)
			f.Add(string(b))
		}
	}
	for _, s := range []string{
		squareTag + "1.5. D4", squareTag + `[Note "a` + "\r" + `b"]`,
		squareTag + "{", squareTag + "D4 [Red \"x\"]", "[Red \"x\"", squareTag + squareTag,
	} {
		f.Add(s)
	}
	lineRef := regexp.MustCompile(`^bad record: line (\d+): `)
	f.Fuzz(func(t *testing.T, s string) {
		r, err := ParseRecord(s)
		if err != nil {
			require.ErrorIs(t, err, ErrRecord)
			require.True(t, strings.HasPrefix(err.Error(), "bad record: "), err.Error())
			if m := lineRef.FindStringSubmatch(err.Error()); m != nil {
				line, _ := strconv.Atoi(m[1])
				require.True(t, line >= 1 && line <= strings.Count(s, "\n")+1, "line %d of a text of %d lines", line, strings.Count(s, "\n")+1)
			}
			return
		}
		text := r.String()
		back, err := ParseRecord(text)
		require.NoError(t, err, "the written record:\n%s", text)
		require.Equal(t, text, back.String(), "written twice")

		require.True(t, back.Layout.Equal(r.Layout))
		require.Equal(t, r.First, back.First)
		require.Equal(t, r.Rules, back.Rules)
		require.Equal(t, r.Result, back.Result)
		require.Len(t, back.Tags, len(r.Tags))
		spaces := strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ")
		for i, tag := range r.Tags {
			require.Equal(t, Tag{tag.Name, spaces.Replace(tag.Value)}, back.Tags[i])
		}
		require.Len(t, back.Moves, len(r.Moves))
		for i, m := range r.Moves {
			require.Equal(t, strings.ToUpper(m), back.Moves[i])
		}

		// Replaying gives the same game either way.
		p, err := r.Replay()
		q, err2 := back.Replay()
		require.Equal(t, p, q)
		require.Equal(t, err == nil, err2 == nil)
		if err != nil {
			var me, me2 *MoveError
			require.ErrorAs(t, err, &me)
			require.ErrorAs(t, err2, &me2)
			require.Equal(t, me.Ply, me2.Ply)
			require.Equal(t, reasonCode(t, me.Err), reasonCode(t, me2.Err))
		}
	})
}

// BenchmarkParseRecord parses the record of a full game.
func BenchmarkParseRecord(b *testing.B) {
	text, err := os.ReadFile(filepath.Join("testdata", "games", "square-full.txt"))
	require.NoError(b, err)
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ParseRecord(string(text)); err != nil {
			b.Fatal(err)
		}
	}
}

func TestMustParseRecord(t *testing.T) {
	assert.Equal(t, []string{"D4"}, MustParseRecord(squareTag+"1. D4").Moves)
	assert.PanicsWithError(t, "bad record: there is no Layout tag; a record needs [Layout \"...\"]", func() { MustParseRecord("1. D4") })
}
