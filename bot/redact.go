package bot

import (
	"log/slog"
	"regexp"
)

// secretPath matches the secret part of the URLs of interaction webhooks and callbacks:
// /webhooks/{application}/{token} and /interactions/{interaction}/{token}. discordgo's errors for
// failed requests (a *url.Error from the HTTP client, say) carry the whole URL.
var secretPath = regexp.MustCompile(`(/(?:webhooks|interactions)/[0-9]+/)[A-Za-z0-9_.\-]+`)

// Redact replaces the interaction tokens in s (in webhook and callback URLs) by "REDACTED", so that
// an error can be logged: a token lets whoever reads it answer as the bot for 15 minutes.
func Redact(s string) string {
	return secretPath.ReplaceAllString(s, "${1}REDACTED")
}

// RedactError returns err with its message redacted (see Redact); errors.Is and errors.As still see
// err, and nil stays nil.
func RedactError(err error) error {
	if err == nil {
		return nil
	}
	return redactedError{err}
}

type redactedError struct{ err error }

func (e redactedError) Error() string { return Redact(e.err.Error()) }
func (e redactedError) Unwrap() error { return e.err }

// RedactAttr is a slog.HandlerOptions.ReplaceAttr that applies Redact to every string and error
// logged, the message included.
func RedactAttr(_ []string, a slog.Attr) slog.Attr {
	switch v := a.Value; v.Kind() {
	case slog.KindString:
		a.Value = slog.StringValue(Redact(v.String()))
	case slog.KindAny:
		if err, ok := v.Any().(error); ok {
			a.Value = slog.StringValue(Redact(err.Error()))
		}
	}
	return a
}
