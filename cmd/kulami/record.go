package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"strings"

	"github.com/kulami/kulami/engine"
)

// maxRecordBytes bounds what replay reads: a record of a whole game is a
// few kilobytes, so more is not a record.
const maxRecordBytes = 1 << 20

// recordName returns the name of the one record a command reads, from the
// arguments left after its flags: a file name, or "-" (standard input) when
// there is none.
func (e *env) recordName(command string, rest []string) (string, error) {
	switch len(rest) {
	case 0:
		return "-", nil
	case 1:
		return rest[0], nil
	}
	return "", &usageError{e.lang.T("cli.one_record", "Command", command, "Args", strings.Join(rest, " "))}
}

// displayName is how messages name the input file.
func (e *env) displayName(name string) string {
	if name == "-" {
		return e.lang.T("cli.stdin")
	}
	return name
}

// loadRecord reads and parses the record in the file name, or on stdin
// for "-". Its errors name the input.
func (e *env) loadRecord(ctx context.Context, name string) (*engine.Record, error) {
	text, err := e.readRecord(ctx, name)
	if err != nil {
		return nil, err
	}
	rec, err := engine.ParseRecord(string(text))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", e.displayName(name), e.parseError(err))
	}
	return rec, nil
}

// fileError words an error of the file system in e's language for the
// two reasons people meet, a missing file and a missing permission: the
// file and why. Any other error is the system's, as it says it.
func (e *env) fileError(err error) error {
	var pe *fs.PathError
	if !errors.As(err, &pe) {
		return err
	}
	switch {
	case errors.Is(pe.Err, fs.ErrNotExist):
		return &wordedError{pe, e.lang.T("cli.file_missing", "File", pe.Path)}
	case errors.Is(pe.Err, fs.ErrPermission):
		return &wordedError{pe, e.lang.T("cli.file_permission", "File", pe.Path)}
	}
	return err
}

// illegalMove words err in e's language if it holds the first illegal
// move of rec (a *engine.MoveError): its number, the move as written and
// the rule it breaks, explained in the position before it. Any other
// error is returned as it is.
func (e *env) illegalMove(rec *engine.Record, err error) error {
	var me *engine.MoveError
	if !errors.As(err, &me) || me.Ply < 1 || me.Ply > len(rec.Moves) {
		return err
	}
	pos, perr := replayTo(rec, me.Ply-1)
	if perr != nil { // the moves before it are legal, as Replay found
		return err
	}
	why := e.newPrinter().explainIllegal(&pos, me.Move, me.Err)
	return &wordedError{err, e.lang.T("cli.illegal_move", "Move", me.Ply, "Written", fmt.Sprintf("%q", me.Move), "Why", why)}
}

// parseError words err in e's language if it is a malformed layout
// string or record (an *engine.ParseError): what it is, on which line, and
// what is wrong, from the message of its code. Any other error is returned
// as it is.
func (e *env) parseError(err error) error {
	var pe *engine.ParseError
	if !errors.As(err, &pe) {
		return err
	}
	args := slices.Clone(pe.Args)
	for i := 1; i < len(args); i += 2 {
		if inner, ok := args[i].(error); ok { // the layout of a Layout tag
			args[i] = e.parseError(inner).Error()
		}
	}
	why := e.lang.T(parseKey(pe.Code), args...)
	if pe.Line > 0 {
		why = e.lang.T("cli.parse.line", "Line", pe.Line, "Why", why)
	}
	what := "cli.parse.layout"
	if errors.Is(pe.Err, engine.ErrRecord) {
		what = "cli.parse.record"
	}
	return &wordedError{err, e.lang.T(what, "Why", why)}
}

// parseKey is the id of the message of a code of engine.ParseCodes.
func parseKey(code string) string {
	return "cli.parse.code." + strings.ReplaceAll(code, "-", "_")
}

// wordedError is an error worded for people in their language.
type wordedError struct {
	err error
	msg string
}

func (e *wordedError) Error() string { return e.msg }
func (e *wordedError) Unwrap() error { return e.err }

// readRecord reads the file name, or stdin for "-", up to maxRecordBytes.
// A cancelled ctx stops the wait for input.
func (e *env) readRecord(ctx context.Context, name string) ([]byte, error) {
	r := e.stdin
	if name == "-" {
		if isTerminal(r) {
			fmt.Fprintln(e.stderr, "kulami: "+e.lang.T("cli.reading_terminal"))
		}
	} else {
		f, err := os.Open(name)
		if err != nil {
			return nil, e.fileError(err)
		}
		defer f.Close()
		r = f
	}
	type result struct {
		text []byte
		err  error
	}
	done := make(chan result, 1)
	go func() {
		b, err := io.ReadAll(io.LimitReader(r, maxRecordBytes+1))
		done <- result{b, err}
	}()
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case res := <-done:
		switch {
		case res.err != nil:
			return nil, fmt.Errorf("%s: %w", e.lang.T("cli.read_file", "File", e.displayName(name)), res.err)
		case len(res.text) > maxRecordBytes:
			return nil, errors.New(e.lang.T("cli.too_large", "File", e.displayName(name), "KiB", maxRecordBytes>>10))
		}
		return res.text, nil
	}
}
