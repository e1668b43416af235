package puzzle

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/kulami/kulami/engine"
)

// Version is the version of the puzzle file format that Write writes and
// Read reads (doc.go).
const Version = 1

// formatName is the format field of a puzzle file's header.
const formatName = "kulami-puzzles"

// ErrFormat is wrapped by every error about a malformed puzzle file.
var ErrFormat = errors.New("bad puzzle file")

// FileError is an error at a line of a puzzle file.
type FileError struct {
	Line int // from 1
	Err  error
}

func (e *FileError) Error() string { return fmt.Sprintf("line %d: %v", e.Line, e.Err) }

func (e *FileError) Unwrap() error { return e.Err }

// header is the first line of a puzzle file.
type header struct {
	Format  string `json:"format"`
	Version int    `json:"version"`
}

// JSON is a puzzle as one line of a puzzle file and of
// "kulami puzzle list --json".
type JSON struct {
	ID       string  `json:"id"`
	Record   string  `json:"record"`
	Solution string  `json:"solution"`
	Goal     Goal    `json:"goal"`
	Rating   int     `json:"rating"`
	Themes   []Theme `json:"themes"`
	Source   string  `json:"source"`
}

// ToJSON returns p as written in a puzzle file.
func (p *Puzzle) ToJSON() JSON {
	themes := p.Themes
	if themes == nil {
		themes = []Theme{}
	}
	return JSON{ID: p.ID, Record: p.Record.String(), Solution: p.SolutionText(), Goal: p.Goal,
		Rating: p.Rating, Themes: themes, Source: p.Source}
}

// FromJSON reads a puzzle written by ToJSON and checks it (Check), and
// that its ID is the one of its position.
func FromJSON(j JSON) (Puzzle, error) {
	rec, err := engine.ParseRecord(j.Record)
	if err != nil {
		return Puzzle{}, fmt.Errorf("%w: record: %w", ErrPuzzle, err)
	}
	p := Puzzle{ID: j.ID, Record: rec, Goal: j.Goal, Rating: j.Rating, Themes: j.Themes, Source: j.Source}
	for _, w := range strings.Fields(j.Solution) {
		c, err := engine.ParseCell(w)
		if err != nil {
			return Puzzle{}, fmt.Errorf("%w: solution: %w", ErrPuzzle, err)
		}
		p.Solution = append(p.Solution, c)
	}
	if err := p.Check(); err != nil {
		return Puzzle{}, err
	}
	if id := idOf(rec); id != j.ID {
		return Puzzle{}, fmt.Errorf("%w: id %q is not the position's, %q", ErrPuzzle, j.ID, id)
	}
	return p, nil
}

// Write writes a puzzle file: the header, then one puzzle a line.
func Write(w io.Writer, ps []Puzzle) error {
	enc := json.NewEncoder(w)
	if err := enc.Encode(header{formatName, Version}); err != nil {
		return err
	}
	for i := range ps {
		if err := enc.Encode(ps[i].ToJSON()); err != nil {
			return err
		}
	}
	return nil
}

// Read reads a puzzle file. Any fault (a missing or unknown header, a
// line that is not a puzzle object, a puzzle that fails FromJSON, an ID
// seen before) is a *FileError naming the line, wrapping ErrFormat.
func Read(r io.Reader) ([]Puzzle, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	fail := func(line int, format string, args ...any) error {
		return &FileError{Line: line, Err: fmt.Errorf("%w: "+format, append([]any{ErrFormat}, args...)...)}
	}
	line := 0
	var ps []Puzzle
	seen := map[string]bool{}
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if line == 1 {
			var h header
			if err := strictJSON(text, &h); err != nil || h.Format != formatName {
				return nil, fail(line, "the first line must be {\"format\":%q,\"version\":%d}", formatName, Version)
			}
			if h.Version != Version {
				return nil, fail(line, "version %d; this program reads version %d", h.Version, Version)
			}
			continue
		}
		if text == "" {
			continue
		}
		var j JSON
		if err := strictJSON(text, &j); err != nil {
			return nil, fail(line, "%v", err)
		}
		p, err := FromJSON(j)
		if err != nil {
			return nil, fail(line, "%v", err)
		}
		if seen[p.ID] {
			return nil, fail(line, "puzzle %s twice", p.ID)
		}
		seen[p.ID] = true
		ps = append(ps, p)
	}
	if err := sc.Err(); err != nil {
		return nil, fail(line+1, "%v", err)
	}
	if line == 0 {
		return nil, fail(1, "empty file")
	}
	return ps, nil
}

// strictJSON decodes one JSON object in text into v, refusing unknown
// fields and anything after the object.
func strictJSON(text string, v any) error {
	dec := json.NewDecoder(strings.NewReader(text))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return errors.New("text after the object")
	}
	return nil
}
