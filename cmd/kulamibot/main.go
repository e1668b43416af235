// Command kulamibot runs the Kulami Discord bot.
//
//	kulamibot [-config FILE]              run the bot
//	kulamibot [-config FILE] register     register the slash commands and exit
//	kulamibot [-config FILE] backup FILE  write a consistent copy of the database
//	kulamibot [-config FILE] migrate --to TARGET  copy the database to another backend
//
// See README.md for setting up the Discord application and
// config.example.toml for the configuration.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/kulami/kulami/bot"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr))
}

const usage = `usage:
  kulamibot [-config FILE]              run the bot
  kulamibot [-config FILE] register     register the slash commands and exit
  kulamibot [-config FILE] backup FILE  write a consistent copy of the database to FILE
                                        (while the bot runs, too)
  kulamibot [-config FILE] migrate --to TARGET
                                        copy the database into a new one and compare
                                        every record (the bot stopped): TARGET is
                                        postgres://… for a bbolt database, a file
                                        for a PostgreSQL one

FILE defaults to config.toml; every key can also be set in the environment
as KULAMI_<SECTION>_<KEY>, e.g. KULAMI_DISCORD_TOKEN.
`

// run is kulamibot without the process around it; tests call it directly.
func run(ctx context.Context, args []string, env func(string) string, stdout, stderr io.Writer) int {
	a, err := parseArgs(args)
	if err != nil {
		fmt.Fprintf(stderr, "kulamibot: %v\n\n%s", err, usage)
		return 2
	}
	if a.help {
		fmt.Fprint(stdout, usage)
		return 0
	}
	cfg, err := LoadConfig(Load{Path: a.config, Required: a.configSet, Offline: a.command == "backup" || a.command == "migrate", Env: env})
	if err != nil {
		fmt.Fprintf(stderr, "kulamibot: %v\n", err)
		return 1
	}
	switch a.command {
	case "register":
		err = register(ctx, cfg, stdout)
	case "backup":
		err = backup(ctx, cfg, a.file, stdout)
	case "migrate":
		err = migrate(ctx, cfg.Storage, a.file, stdout)
	default:
		err = serve(ctx, cfg, stderr)
	}
	if err != nil {
		fmt.Fprintf(stderr, "kulamibot: %v\n", bot.RealURL(err))
		return 1
	}
	return 0
}

type arguments struct {
	config    string
	configSet bool
	command   string
	file      string
	help      bool
}

func parseArgs(args []string) (arguments, error) {
	var a arguments
	fs := flag.NewFlagSet("kulamibot", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&a.config, "config", "config.toml", "configuration file")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			a.help = true
			return a, nil
		}
		return a, err
	}
	fs.Visit(func(f *flag.Flag) { a.configSet = a.configSet || f.Name == "config" })
	rest := fs.Args()
	if len(rest) > 0 {
		a.command, rest = rest[0], rest[1:]
	}
	switch a.command {
	case "", "register":
	case "help":
		a.help = true
		return a, nil
	case "backup":
		if len(rest) == 0 {
			return a, errors.New("backup needs the name of the file to write, as in: kulamibot backup kulami-backup.db")
		}
		a.file, rest = rest[0], rest[1:]
	case "migrate":
		mf := flag.NewFlagSet("migrate", flag.ContinueOnError)
		mf.SetOutput(io.Discard)
		mf.StringVar(&a.file, "to", "", "the database to copy into")
		if err := mf.Parse(rest); err != nil {
			return a, fmt.Errorf("migrate: %w", err)
		}
		if a.file == "" {
			return a, errors.New("migrate needs the database to copy into, as in: kulamibot migrate --to postgres://kulami@localhost:5432/kulami (or --to kulami.db to copy PostgreSQL into a file)")
		}
		rest = mf.Args()
	default:
		return a, fmt.Errorf("unknown command %q", a.command)
	}
	if len(rest) > 0 {
		return a, fmt.Errorf("unexpected argument %q", rest[0])
	}
	return a, nil
}
