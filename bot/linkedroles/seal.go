package linkedroles

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// KeySize is the size of the key that seals the tokens and signs the
// states: 32 bytes, written as 64 hex digits in the configuration.
const KeySize = 32

// ErrUnsealable is a sealed grant that the key cannot open: it was sealed
// under another key, for another user, or changed.
var ErrUnsealable = errors.New("linkedroles: the sealed token cannot be opened with this key")

// grant is a user's OAuth2 tokens.
type grant struct {
	Access  string    `json:"access"`
	Refresh string    `json:"refresh"`
	Expires time.Time `json:"expires"`
}

// subkey derives the key for one use of the configured key.
func subkey(key []byte, use string) []byte {
	m := hmac.New(sha256.New, key)
	m.Write([]byte("kulami linked roles " + use))
	return m.Sum(nil)
}

// sealer seals grants with AES-256-GCM, a random nonce each, the user's
// ID as additional data: a sealed grant copied onto another user does not
// open.
type sealer struct{ aead cipher.AEAD }

func newSealer(key []byte) (sealer, error) {
	block, err := aes.NewCipher(subkey(key, "seal"))
	if err != nil {
		return sealer{}, err
	}
	aead, err := cipher.NewGCM(block)
	return sealer{aead}, err
}

// seal returns g sealed for user: the nonce, then the ciphertext.
func (s sealer) seal(user string, g grant) ([]byte, error) {
	plain, err := json.Marshal(g)
	if err != nil {
		return nil, err
	}
	nonce := make([]byte, s.aead.NonceSize(), s.aead.NonceSize()+len(plain)+s.aead.Overhead())
	if _, err := rand.Read(nonce); err != nil {
		return nil, err
	}
	return s.aead.Seal(nonce, nonce, plain, []byte(user)), nil
}

// open returns the grant sealed for user, or ErrUnsealable.
func (s sealer) open(user string, sealed []byte) (grant, error) {
	var g grant
	n := s.aead.NonceSize()
	if len(sealed) < n {
		return g, ErrUnsealable
	}
	plain, err := s.aead.Open(nil, sealed[:n], sealed[n:], []byte(user))
	if err != nil {
		return g, ErrUnsealable
	}
	if err := json.Unmarshal(plain, &g); err != nil {
		return g, fmt.Errorf("%w: %w", ErrUnsealable, err)
	}
	return g, nil
}
