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
	"unicode/utf8"

	"github.com/kulami/kulami/bot/i18n"
	"github.com/kulami/kulami/draw"
	"github.com/kulami/kulami/engine/review"
)

// command is one subcommand of kulami: an entry of the dispatch table.
// Its texts are the messages cli.NAME.args (the synopsis of its
// arguments), cli.NAME.summary (one line for the usage text) and
// cli.NAME.doc (what "kulami help NAME" says before the flags).
type command struct {
	name string // as typed: kulami NAME
	// run carries out the command with the arguments after its name. It
	// returns a *usageError for a mistake in the command line, a
	// *helpRequest for -h, and any other error for bad input or a failure.
	run func(ctx context.Context, e *env, args []string) error
}

// commands is the dispatch table, in the order the usage text lists them.
// A new subcommand is one more entry, and its messages.
var commands = []command{
	{"play", runPlay},
	{"replay", runReplay},
	{"layout", runLayout},
	{"think", runThink},
	{"arena", runArena},
	{"render", runRender},
	{"review", runReview},
	{"puzzle", runPuzzle},
}

// synopsis is the synopsis of the command's arguments, in l.
func (c command) synopsis(l i18n.Lang) string { return l.T("cli." + c.name + ".args") }

// summary is the command's line in the usage text, in l.
func (c command) summary(l i18n.Lang) string { return l.T("cli." + c.name + ".summary") }

// doc is what "kulami help NAME" says about the command, in l.
func (c command) doc(l i18n.Lang) string { return l.T("cli."+c.name+".doc", docArgs[c.name]...) }

// docArgs are the placeholders of the commands' docs.
var docArgs = map[string][]any{
	"render": {"Width", draw.DefaultAnimationWidth},
	"review": {"Cost", int(100 * review.MinCost), "Playouts", review.DefaultPlayouts},
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
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr, os.LookupEnv)
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
	lang           i18n.Lang        // the language of what people read
}

// run is kulami without the process around it: args are the arguments
// after the program name, lookupEnv reads the environment; the result is
// the exit status. A cancelled ctx (a signal) stops a command that waits
// for input.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer, lookupEnv func(string) (string, bool)) int {
	e := &env{
		stdin:  stdin,
		stdout: stdout,
		stderr: stderr,
		color:  useColor(stdout, lookupEnv),
		now:    time.Now,
		lang:   envLang(lookupEnv),
	}
	return e.run(ctx, args)
}

// run dispatches args to a command, in the language --lang names if it
// is there, and turns its error into an exit status and a one-line
// message on stderr.
func (e *env) run(ctx context.Context, args []string) int {
	if e.lang == "" {
		e.lang = i18n.English
	}
	args, lang, ok, err := langFlag(args)
	var le *langError
	if errors.As(err, &le) {
		fmt.Fprintf(e.stderr, "kulami: %s\n", oneLine(le.message(e.lang)))
		return statusUsage
	}
	if ok {
		e.lang = lang
	}
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
		fmt.Fprintf(e.stderr, "kulami: %s\n", oneLine(e.lang.T("cli.unknown_command", "Command", fmt.Sprintf("%q", name), "Commands", commandNames())))
		return statusUsage
	}
	err = cmd.run(ctx, e, rest)
	var ue *usageError
	var hr *helpRequest
	switch {
	case err == nil:
		return statusOK
	case errors.As(err, &hr):
		e.commandUsage(cmd, hr.flags)
		return statusOK
	case errors.As(err, &ue):
		fmt.Fprintf(e.stderr, "kulami %s: %s\n", cmd.name, oneLine(e.lang.T("cli.usage_error", "Message", ue.msg, "Command", cmd.name)))
		return statusUsage
	case errors.Is(err, context.Canceled):
		fmt.Fprintf(e.stderr, "kulami %s: %s\n", cmd.name, e.lang.T("cli.interrupted"))
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
	fmt.Fprintf(w, "%s\n\n%s\n\n", e.lang.T("cli.intro"), e.lang.T("cli.usage"))
	lines := [][2]string{}
	for _, c := range commands {
		lines = append(lines, [2]string{c.name + " " + c.synopsis(e.lang), c.summary(e.lang)})
	}
	lines = append(lines, [2]string{"help " + e.lang.T("cli.help_args"), e.lang.T("cli.help_summary")})
	width := 0
	for _, l := range lines {
		width = max(width, utf8.RuneCountInString(l[0]))
	}
	for _, l := range lines {
		fmt.Fprintf(w, "  kulami %s%s  %s\n", l[0], strings.Repeat(" ", width-utf8.RuneCountInString(l[0])), l[1])
	}
	fmt.Fprintf(w, "\n%s", e.lang.T("cli.notes"))
}

// commandUsage writes the usage of cmd, with the flags of fs, on stdout.
func (e *env) commandUsage(cmd command, fs *flag.FlagSet) {
	fmt.Fprintf(e.stdout, "%s\n\n%s", e.lang.T("cli.command_usage", "Command", cmd.name+" "+cmd.synopsis(e.lang)), cmd.doc(e.lang))
	fmt.Fprintf(e.stdout, "\n%s\n", e.lang.T("cli.flags"))
	fs.VisitAll(func(f *flag.Flag) {
		name, usage := flag.UnquoteUsage(f)
		fmt.Fprintf(e.stdout, "  -%s", f.Name)
		if name != "" {
			fmt.Fprintf(e.stdout, " %s", name)
		}
		fmt.Fprintf(e.stdout, "\n    \t%s", strings.ReplaceAll(usage, "\n", "\n    \t"))
		if f.DefValue != "" && f.DefValue != "false" && f.DefValue != "0" && f.DefValue != "0s" {
			def := f.DefValue
			if g, ok := f.Value.(flag.Getter); ok {
				if _, isString := g.Get().(string); isString {
					def = fmt.Sprintf("%q", def)
				}
			}
			fmt.Fprintf(e.stdout, " %s", e.lang.T("cli.flag_default", "Value", def))
		}
		fmt.Fprintln(e.stdout)
	})
	fmt.Fprintf(e.stdout, "  -lang %s\n    \t%s\n", e.lang.T("cli.lang_arg"), e.lang.T("cli.lang_flag"))
}

// helpRequest is returned by a command asked for its usage with -h.
type helpRequest struct{ flags *flag.FlagSet }

func (*helpRequest) Error() string { return "help requested" }

// usageError is a mistake in the command line: exit status 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

// oneLine makes s safe to print as one line on a terminal, whatever a
// file name, a tag or a quoted input put into it: runs of white space
// become one space and other control characters (such as the escape that
// starts a terminal command) become U+FFFD. The no-break spaces of French
// typography (before : ; ? ! and inside « ») stay.
func oneLine(s string) string {
	s = strings.Join(strings.FieldsFunc(s, func(r rune) bool { return unicode.IsSpace(r) && r != '\u00a0' && r != '\u202f' }), " ")
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

// flagUsage is the usage text of the flag name of the command cmd, in e's
// language: the message cli.CMD.flag.NAME.
func (e *env) flagUsage(cmd, name string) string {
	return e.lang.T("cli." + cmd + ".flag." + strings.ReplaceAll(name, "-", "_"))
}

// parse parses the flags of fs wherever they stand among args, as in
// "kulami replay game.kgn --json", and returns the other arguments; "--"
// ends the flags. A bad flag is a *usageError; -h or -help returns a
// *helpRequest.
func (e *env) parse(fs *flag.FlagSet, args []string) ([]string, error) {
	var rest []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, &helpRequest{fs}
			}
			return nil, e.flagError(fs, err)
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

// flagError words an error of flag.FlagSet.Parse in e's language. The
// flag package says three things in English: a flag that does not exist,
// a flag without its value and a value a flag refuses; the last is worded
// by the kind of value the flag takes.
func (e *env) flagError(fs *flag.FlagSet, err error) error {
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: "); ok {
		return &usageError{e.lang.T("cli.flag_unknown", "Flag", "-"+strings.TrimLeft(name, "-"))}
	}
	if name, ok := strings.CutPrefix(msg, "flag needs an argument: "); ok {
		return &usageError{e.lang.T("cli.flag_needs_value", "Flag", "-"+strings.TrimLeft(name, "-"))}
	}
	if arg, ok := strings.CutPrefix(msg, "bad flag syntax: "); ok {
		return &usageError{e.lang.T("cli.flag_syntax", "Flag", fmt.Sprintf("%q", arg))}
	}
	// invalid value "x" for flag -name: reason, or invalid boolean value …
	var value, name string
	if _, err := fmt.Sscanf(msg, "invalid value %q for flag -%s", &value, &name); err != nil {
		if _, err := fmt.Sscanf(msg, "invalid boolean value %q for -%s", &value, &name); err != nil {
			return &usageError{msg}
		}
	}
	name = strings.TrimSuffix(name, ":")
	want := "cli.value_text"
	if f := fs.Lookup(name); f != nil {
		switch f.Value.(type) {
		case *seedFlag:
			want = "cli.value_seed"
		default:
			if g, ok := f.Value.(flag.Getter); ok {
				switch g.Get().(type) {
				case bool:
					want = "cli.value_bool"
				case int, int64, uint, uint64:
					want = "cli.value_int"
				case time.Duration:
					want = "cli.value_duration"
				}
			}
		}
	}
	return &usageError{e.lang.T("cli.flag_bad_value", "Flag", "-"+name, "Value", fmt.Sprintf("%q", value), "Want", e.lang.T(want))}
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
