package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"
	"unicode"
)

// command is one subcommand of kulami: an entry of the dispatch table.
type command struct {
	name    string // as typed: kulami NAME
	args    string // the synopsis of its arguments, for the usage text
	summary string // one line for the usage text
	doc     string // what "kulami help NAME" says before the flags
	// run carries out the command with the arguments after its name. It
	// returns a *usageError for a mistake in the command line, a
	// *helpRequest for -h, and any other error for bad input or a failure.
	run func(ctx context.Context, e *env, args []string) error
}

// commands is the dispatch table, in the order the usage text lists them.
// A new subcommand is one more entry.
var commands = []command{
	{"play", "[flags]", "play a game, two people at one terminal", playDoc, runPlay},
	{"replay", "[--json] [FILE|-]", "replay a record: board, score and result", replayDoc, runReplay},
	{"layout", "[KIND|LAYOUT] [--seed N]", "draw a layout and print its string", layoutDoc, runLayout},
	{"think", "[flags] [FILE|-]", "print the computer's move at the end of a record", thinkDoc, runThink},
	{"arena", "--a P --b P [flags]", "play a match between two computer players", arenaDoc, runArena},
	{"render", "[flags] [FILE|-]", "draw a record's board as a PNG image, as the bot shows it", renderDoc, runRender},
	{"review", "[flags] [FILE|-]", "analyse every move of a record: win chances and mistakes", reviewDoc, runReview},
}

// Exit statuses. An illegal move inside a well-formed record is data, not
// a failure: replay reports it and exits with statusOK.
const (
	statusOK          = 0   // done
	statusBadInput    = 1   // unreadable file, malformed record or layout, failed write
	statusUsage       = 2   // unknown command, bad flag or argument
	statusInterrupted = 130 // stopped by a signal (128 + SIGINT)
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// env is what a command may use of the outside world. Tests build one to
// fix the clock; run builds the real one.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	color          bool             // stdout takes ANSI colours
	now            func() time.Time // the clock, for dates and seeds
}

// run is kulami without the process around it: args are the arguments
// after the program name; the result is the exit status. A cancelled ctx
// (a signal) stops a command that waits for input.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	e := &env{
		stdin:  stdin,
		stdout: stdout,
		stderr: stderr,
		color:  useColor(stdout, os.LookupEnv),
		now:    time.Now,
	}
	return e.run(ctx, args)
}

// run dispatches args to a command and turns its error into an exit
// status and a one-line message on stderr.
func (e *env) run(ctx context.Context, args []string) int {
	if len(args) == 0 {
		e.usage()
		return statusOK
	}
	name, rest := args[0], args[1:]
	if name == "help" || name == "-h" || name == "-help" || name == "--help" {
		if len(rest) == 0 {
			e.usage()
			return statusOK
		}
		// "kulami help replay" is "kulami replay --help".
		name, rest = rest[0], []string{"--help"}
	}
	cmd, ok := lookup(name)
	if !ok {
		fmt.Fprintf(e.stderr, "kulami: unknown command %q; the commands are %s (run 'kulami help')\n", name, commandNames())
		return statusUsage
	}
	err := cmd.run(ctx, e, rest)
	var ue *usageError
	var hr *helpRequest
	switch {
	case err == nil:
		return statusOK
	case errors.As(err, &hr):
		e.commandUsage(cmd, hr.flags)
		return statusOK
	case errors.As(err, &ue):
		fmt.Fprintf(e.stderr, "kulami %s: %s (run 'kulami help %s')\n", cmd.name, oneLine(ue.msg), cmd.name)
		return statusUsage
	case errors.Is(err, context.Canceled):
		fmt.Fprintf(e.stderr, "kulami %s: interrupted\n", cmd.name)
		return statusInterrupted
	}
	fmt.Fprintf(e.stderr, "kulami %s: %s\n", cmd.name, oneLine(err.Error()))
	return statusBadInput
}

func lookup(name string) (command, bool) {
	for _, c := range commands {
		if c.name == name {
			return c, true
		}
	}
	return command{}, false
}

func commandNames() string {
	names := make([]string, len(commands))
	for i, c := range commands {
		names[i] = c.name
	}
	return strings.Join(names, ", ")
}

// usage writes the usage text on stdout: every command with one line
// each.
func (e *env) usage() {
	w := e.stdout
	fmt.Fprintf(w, "kulami plays and inspects games of Kulami.\n\nUsage:\n\n")
	width := len("help [COMMAND]")
	for _, c := range commands {
		width = max(width, len(c.name)+1+len(c.args))
	}
	for _, c := range commands {
		fmt.Fprintf(w, "  kulami %-*s  %s\n", width, c.name+" "+c.args, c.summary)
	}
	fmt.Fprintf(w, "  kulami %-*s  %s\n", width, "help [COMMAND]", "this text, or the details of a command")
	fmt.Fprint(w, `
Moves are holes written as a column letter and a row number, like D4;
A1 is the top-left corner. Records and layout strings are as RECORD.md
of the kulami project describes them.

Exit status: 0 done (replaying a record that contains an illegal move is
done: the move is reported and the board before it shown); 1 bad input
(unreadable file, malformed record, failed write); 2 a mistake in the
command line (unknown command, bad flag or argument, bad layout string);
130 interrupted.
`)
}

// commandUsage writes the usage of cmd, with the flags of fs, on stdout.
func (e *env) commandUsage(cmd command, fs *flag.FlagSet) {
	fmt.Fprintf(e.stdout, "Usage: kulami %s %s\n\n%s", cmd.name, cmd.args, cmd.doc)
	if hasFlags(fs) {
		fmt.Fprintf(e.stdout, "\nFlags:\n")
		fs.SetOutput(e.stdout)
		fs.PrintDefaults()
	}
}

// helpRequest is returned by a command asked for its usage with -h.
type helpRequest struct{ flags *flag.FlagSet }

func (*helpRequest) Error() string { return "help requested" }

// usageError is a mistake in the command line: exit status 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error {
	return &usageError{fmt.Sprintf(format, args...)}
}

// oneLine makes s safe to print as one line on a terminal, whatever a
// file name, a tag or a quoted input put into it: runs of white space
// become one space and other control characters (such as the escape that
// starts a terminal command) become U+FFFD.
func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	return strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return unicode.ReplacementChar
		}
		return r
	}, s)
}

// newFlags returns an empty flag set for the command name that reports
// its errors to parse instead of printing them.
func newFlags(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs
}

func hasFlags(fs *flag.FlagSet) bool {
	n := 0
	fs.VisitAll(func(*flag.Flag) { n++ })
	return n > 0
}

// parse parses the flags of fs wherever they stand among args, as in
// "kulami replay game.kgn --json", and returns the other arguments; "--"
// ends the flags. A bad flag is a *usageError; -h or -help returns a
// *helpRequest.
func parse(fs *flag.FlagSet, args []string) ([]string, error) {
	var rest []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, &helpRequest{fs}
			}
			return nil, usagef("%v", err)
		}
		n := len(args) - fs.NArg()
		if n > 0 && args[n-1] == "--" {
			return append(rest, fs.Args()...), nil
		}
		if fs.NArg() == 0 {
			return rest, nil
		}
		rest = append(rest, fs.Arg(0))
		args = fs.Args()[1:]
	}
}

// useColor reports whether output to w may use ANSI colours: w is a
// terminal (a character device), NO_COLOR is not set and TERM is not
// "dumb".
func useColor(w io.Writer, lookupEnv func(string) (string, bool)) bool {
	if _, ok := lookupEnv("NO_COLOR"); ok {
		return false
	}
	if term, _ := lookupEnv("TERM"); term == "dumb" {
		return false
	}
	return isTerminal(w)
}

// isTerminal reports whether v is a file open on a character device, as a
// terminal is.
func isTerminal(v any) bool {
	f, ok := v.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
