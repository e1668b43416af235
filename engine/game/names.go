package game

import (
	"fmt"
	"strings"
)

// name returns the name of v in names, or typ(v) for a value without one.
func name[E ~uint8](names []string, typ string, v E) string {
	if int(v) < len(names) {
		return names[v]
	}
	return fmt.Sprintf("%s(%d)", typ, v)
}

// marshalName returns the name of v, or an error wrapping ErrInvalid for a
// value without one.
func marshalName[E ~uint8](names []string, typ string, v E) ([]byte, error) {
	if int(v) >= len(names) {
		return nil, invalid("%s %d has no name", typ, v)
	}
	return []byte(names[v]), nil
}

// unmarshalName sets *e to the value named b, or returns an error wrapping
// ErrInvalid and leaves *e alone.
func unmarshalName[E ~uint8](names []string, typ string, b []byte, e *E) error {
	for i, s := range names {
		if string(b) == s {
			*e = E(i)
			return nil
		}
	}
	return invalid("%s %q is not one of %s", typ, b, strings.Join(names, ", "))
}

// invalid returns an error wrapping ErrInvalid with a formatted message.
func invalid(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrInvalid, fmt.Sprintf(format, args...))
}
