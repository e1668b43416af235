package storage

import (
	"fmt"
	"strings"
)

// names are the names of the values 0, 1, 2, ... of a small enumeration,
// as the enumerations of this package write themselves in stored JSON.
type names []string

// text returns the name of v, or typ(v) for a value without one.
func (n names) text(typ string, v uint8) string {
	if int(v) < len(n) {
		return n[v]
	}
	return fmt.Sprintf("%s(%d)", typ, v)
}

// marshal returns the name of v, or an error for a value without one.
func (n names) marshal(typ string, v uint8) ([]byte, error) {
	if int(v) >= len(n) {
		return nil, fmt.Errorf("%w: %s(%d) has no name", ErrInvalid, typ, v)
	}
	return []byte(n[v]), nil
}

// parse returns the value named b.
func (n names) parse(typ string, b []byte) (uint8, error) {
	for i, s := range n {
		if string(b) == s {
			return uint8(i), nil
		}
	}
	return 0, fmt.Errorf("%w: %s %q is not one of %s", ErrInvalid, typ, b, strings.Join(n, ", "))
}

// unmarshalName sets *e to the value named b in n, or returns an error
// and leaves *e alone; typ names the enumeration in the message.
func unmarshalName[E ~uint8](n names, typ string, b []byte, e *E) error {
	v, err := n.parse(typ, b)
	if err != nil {
		return err
	}
	*e = E(v)
	return nil
}

// valid reports whether v has a name.
func (n names) valid(v uint8) bool { return int(v) < len(n) }
