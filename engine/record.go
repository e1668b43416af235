package engine

import (
	"errors"
	"fmt"
	"strings"
)

// ErrRecord is wrapped by every error about a malformed game record.
var ErrRecord = errors.New("bad record")

// Tag is a tag pair of a game record, such as [Red "alice"].
type Tag struct {
	Name, Value string
}

// Record is a game record (RECORD.md): tag pairs, then the moves.
//
// The tags Layout, First and Scoring are kept in their fields; every other
// tag is kept in Tags, in order, as information that never changes play.
type Record struct {
	Layout *Layout
	First  Color // the First tag; Red when absent
	Rules  Rules // the Scoring tag; Basic when absent
	Tags   []Tag // the other tags, in order
	// Moves are the move tokens as written, from the first move, without
	// move numbers, comments and the result word.
	Moves []string
	// Result is the result word that ended the moves ("1-0", "0-1",
	// "1/2-1/2" or "*"), or "" if there was none.
	Result string
}

// The result words a record's moves may end with.
var resultWords = []string{"1-0", "0-1", "1/2-1/2", "*"}

// NewRecord returns a record of a game on layout l with no moves yet.
func NewRecord(l *Layout, first Color, rules Rules) *Record {
	return &Record{Layout: l, First: first, Rules: rules}
}

// Tag returns the value of the tag called name (other than Layout, First
// and Scoring), or false if it is absent.
func (r *Record) Tag(name string) (string, bool) {
	for _, t := range r.Tags {
		if t.Name == name {
			return t.Value, true
		}
	}
	return "", false
}

// SetTag sets the tag called name, replacing its value if present and
// adding it at the end otherwise. Use the fields for Layout, First and
// Scoring.
func (r *Record) SetTag(name, value string) {
	for i := range r.Tags {
		if r.Tags[i].Name == name {
			r.Tags[i].Value = value
			return
		}
	}
	r.Tags = append(r.Tags, Tag{name, value})
}

// ParseRecord reads a game record. A malformed record (a broken tag, a tag
// after the moves, a missing or bad Layout, a bad First or Scoring, an
// unclosed comment) returns a *ParseError wrapping ErrRecord that names
// the problem and its line. Moves are not checked against the rules here: see
// Replay.
func ParseRecord(text string) (*Record, error) {
	p := recordParser{s: strings.TrimPrefix(text, "\ufeff"), line: 1}
	rec, err := p.parse()
	if err != nil {
		return nil, err
	}
	return rec, nil
}

// MustParseRecord is ParseRecord for records known to be valid; it panics
// on an error.
func MustParseRecord(text string) *Record {
	r, err := ParseRecord(text)
	if err != nil {
		panic(err)
	}
	return r
}

type recordParser struct {
	s    string
	i    int
	line int
}

// fail returns the problem code, naming args, on the current line.
func (p *recordParser) fail(code string, args ...any) error {
	return &ParseError{Err: ErrRecord, Line: p.line, Code: code, Args: args}
}

func (p *recordParser) parse() (*Record, error) {
	rec := &Record{}
	seen := map[string]bool{}
	for p.i < len(p.s) {
		switch b := p.s[p.i]; {
		case b == '\n':
			p.line++
			p.i++
		case b == ' ' || b == '\t' || b == '\r' || b == '\f' || b == '\v':
			p.i++
		case b == ';':
			for p.i < len(p.s) && p.s[p.i] != '\n' {
				p.i++
			}
		case b == '{':
			start := p.line
			for p.i++; p.i < len(p.s) && p.s[p.i] != '}'; p.i++ {
				if p.s[p.i] == '\n' {
					p.line++
				}
			}
			if p.i == len(p.s) {
				p.line = start
				return nil, p.fail("open-comment")
			}
			p.i++
		case b == '}':
			return nil, p.fail("stray-brace")
		case b == '[':
			if len(rec.Moves) > 0 {
				return nil, p.fail("tag-after-moves")
			}
			t, err := p.tag()
			if err != nil {
				return nil, err
			}
			if seen[t.Name] {
				return nil, p.fail("tag-twice", "Tag", t.Name)
			}
			seen[t.Name] = true
			if err := p.apply(rec, t); err != nil {
				return nil, err
			}
		default:
			start := p.i
			for p.i < len(p.s) && !isSpace(p.s[p.i]) && p.s[p.i] != ';' && p.s[p.i] != '{' {
				p.i++
			}
			if n := moveNumberLen(p.s[start:p.i]); n > 0 {
				// Skip the move number and read what follows it ("1.D4")
				// afresh, as it will be read when the record is written.
				p.i = start + n
				continue
			}
			rec.Moves = append(rec.Moves, p.s[start:p.i])
		}
	}
	if rec.Layout == nil {
		return nil, &ParseError{Err: ErrRecord, Code: "no-layout"}
	}
	if n := len(rec.Moves); n > 0 {
		for _, w := range resultWords {
			if rec.Moves[n-1] == w {
				rec.Result, rec.Moves = w, rec.Moves[:n-1]
				break
			}
		}
	}
	return rec, nil
}

// apply stores tag t in rec.
func (p *recordParser) apply(rec *Record, t Tag) error {
	var err error
	switch t.Name {
	case "Layout":
		if rec.Layout, err = ParseLayout(t.Value); err != nil {
			return p.fail("layout-tag", "Why", err)
		}
	case "First":
		if rec.First, err = ParseColor(t.Value); err != nil {
			return p.fail("first-tag", "Value", fmt.Sprintf("%q", t.Value))
		}
	case "Scoring":
		if rec.Rules, err = ParseRules(t.Value); err != nil {
			return p.fail("scoring-tag", "Value", fmt.Sprintf("%q", t.Value))
		}
	default:
		rec.Tags = append(rec.Tags, t)
	}
	return nil
}

// tag reads a tag pair [Name "value"] at p.i.
func (p *recordParser) tag() (Tag, error) {
	p.i++ // '['
	p.skipBlanks()
	start := p.i
	for p.i < len(p.s) && isNameByte(p.s[p.i]) {
		p.i++
	}
	name := p.s[start:p.i]
	if name == "" {
		return Tag{}, p.fail("tag-name")
	}
	p.skipBlanks()
	if p.i >= len(p.s) || p.s[p.i] != '"' {
		return Tag{}, p.fail("tag-value", "Tag", name)
	}
	p.i++
	var v strings.Builder
	for {
		if p.i >= len(p.s) || p.s[p.i] == '\n' {
			return Tag{}, p.fail("open-value", "Tag", name)
		}
		b := p.s[p.i]
		p.i++
		if b == '"' {
			break
		}
		if b == '\\' && p.i < len(p.s) && (p.s[p.i] == '"' || p.s[p.i] == '\\') {
			b = p.s[p.i]
			p.i++
		}
		v.WriteByte(b)
	}
	p.skipBlanks()
	if p.i >= len(p.s) || p.s[p.i] != ']' {
		return Tag{}, p.fail("open-tag", "Tag", name)
	}
	p.i++
	return Tag{Name: name, Value: v.String()}, nil
}

func (p *recordParser) skipBlanks() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t') {
		p.i++
	}
}

func isSpace(b byte) bool {
	return b == ' ' || b == '\t' || b == '\n' || b == '\r' || b == '\f' || b == '\v'
}

func isNameByte(b byte) bool {
	return b == '_' || '0' <= b && b <= '9' || 'a' <= lower(b) && lower(b) <= 'z'
}

// moveNumberLen returns the length of the move number ("12." or "12...")
// at the start of a token, or 0 if it does not start with one.
func moveNumberLen(tok string) int {
	i := 0
	for i < len(tok) && '0' <= tok[i] && tok[i] <= '9' {
		i++
	}
	if i == 0 || i == len(tok) || tok[i] != '.' {
		return 0
	}
	for i < len(tok) && tok[i] == '.' {
		i++
	}
	return i
}

// String writes the record as a program should (RECORD.md): the canonical
// layout, upper-case coordinates and a move number before each pair of
// moves. A leading Game tag stays first; Layout, First and Scoring follow;
// then the other tags in order. Line breaks in tag values become spaces.
func (r *Record) String() string {
	var b strings.Builder
	tags := r.Tags
	if len(tags) > 0 && tags[0].Name == "Game" {
		writeTag(&b, tags[0])
		tags = tags[1:]
	}
	writeTag(&b, Tag{"Layout", r.Layout.String()})
	writeTag(&b, Tag{"First", r.First.Title()})
	writeTag(&b, Tag{"Scoring", r.Rules.String()})
	for _, t := range tags {
		writeTag(&b, t)
	}
	b.WriteByte('\n')
	width := 0
	word := func(w string) {
		if width > 0 && width+1+len(w) > 79 {
			b.WriteByte('\n')
			width = 0
		} else if width > 0 {
			b.WriteByte(' ')
			width++
		}
		b.WriteString(w)
		width += len(w)
	}
	for i, m := range r.Moves {
		if i%2 == 0 {
			word(fmt.Sprintf("%d.", i/2+1))
		}
		word(strings.ToUpper(m))
	}
	if r.Result != "" {
		word(r.Result)
	}
	if width > 0 {
		b.WriteByte('\n')
	}
	return b.String()
}

// MarshalText writes the record as String does.
func (r *Record) MarshalText() ([]byte, error) { return []byte(r.String()), nil }

// UnmarshalText reads a record as ParseRecord does.
func (r *Record) UnmarshalText(b []byte) error {
	v, err := ParseRecord(string(b))
	if err != nil {
		return err
	}
	*r = *v
	return nil
}

func writeTag(b *strings.Builder, t Tag) {
	v := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\r\n", " ", "\n", " ", "\r", " ").Replace(t.Value)
	fmt.Fprintf(b, "[%s \"%s\"]\n", t.Name, v)
}

// MoveError is an illegal move met while replaying a record.
type MoveError struct {
	Ply  int    // 1-based number of the move in the record
	Move string // the token as written
	Err  error  // the rule broken; errors.As gives its *RuleError
}

func (e *MoveError) Error() string {
	return fmt.Sprintf("move %d (%s): %v", e.Ply, e.Move, e.Err)
}

func (e *MoveError) Unwrap() error { return e.Err }

// Replay plays the record's moves from the empty board. It stops at the
// first illegal move and returns the position before it with a *MoveError;
// otherwise it returns the position after the last move and nil.
func (r *Record) Replay() (Position, error) {
	p := NewPosition(r.Layout, r.First)
	for i, m := range r.Moves {
		if err := p.PlayMove(m); err != nil {
			return p, &MoveError{Ply: i + 1, Move: m, Err: err}
		}
	}
	return p, nil
}
