package resources

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
)

// Generated names and identifiers are derived, never drawn from a shared
// sequential source: each request has its own key, a hash of (registry seed,
// stack id, logical id, client request token), and each generated value a
// stream of that key and a purpose (the property it fills). So the values do
// not depend on the order in which independent resources run, a retry with
// the same token regenerates the same name, and a replacement (a new token)
// gets a new one.

type entropyKey [32]byte

func requestKey(seed int64, stackID, logicalID, token string) entropyKey {
	h := sha256.New()
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], uint64(seed))
	h.Write(b[:])
	for _, s := range []string{stackID, logicalID, token} {
		binary.BigEndian.PutUint64(b[:], uint64(len(s)))
		h.Write(b[:])
		h.Write([]byte(s))
	}
	var k entropyKey
	h.Sum(k[:0])
	return k
}

// byteStream yields bytes of sha256(key || purpose || counter).
type byteStream struct {
	key     entropyKey
	purpose string
	counter uint64
	buf     []byte
}

func (k entropyKey) stream(purpose string) *byteStream {
	return &byteStream{key: k, purpose: purpose}
}

func (s *byteStream) next() byte {
	if len(s.buf) == 0 {
		h := sha256.New()
		h.Write(s.key[:])
		h.Write([]byte(s.purpose))
		var b [8]byte
		binary.BigEndian.PutUint64(b[:], s.counter)
		h.Write(b[:])
		s.counter++
		s.buf = h.Sum(nil)
	}
	c := s.buf[0]
	s.buf = s.buf[1:]
	return c
}

// pick returns n characters of alphabet, uniformly (rejection sampling).
func (s *byteStream) pick(alphabet string, n int) string {
	out := make([]byte, n)
	limit := 256 - 256%len(alphabet)
	for i := 0; i < n; {
		c := int(s.next())
		if c >= limit {
			continue
		}
		out[i] = alphabet[c%len(alphabet)]
		i++
	}
	return string(out)
}

// uuid returns a version-4 UUID.
func (s *byteStream) uuid() string {
	var b [16]byte
	for i := range b {
		b[i] = s.next()
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b[:])
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}

const (
	alphaUpperNum = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	alphaLowerNum = "abcdefghijklmnopqrstuvwxyz0123456789"
	alphaMixedNum = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	alphaHex      = "0123456789abcdef"
	alphaDigits   = "0123456789"
)
