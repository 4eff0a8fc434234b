package resources

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"strings"
)

// Generated names and identifiers are derived, never drawn from a shared
// sequential source: each request has its own key, a hash of (registry seed,
// stack id, logical id, client request token), and each generated value a
// stream of that key and a purpose (the property it fills). So the values do
// not depend on the order in which independent resources run, a retry with
// the same token regenerates the same name, and a replacement (a new token)
// gets a new one; so does a rollback's create, whose token is the
// operation's (env.entropy marks it).

type entropyKey [32]byte

func requestKey(seed int64, stackID, logicalID, token string) entropyKey {
	// One buffer, hashed at once: the same bytes as writing each piece to
	// a running hash, without its allocations.
	var arr [256]byte
	b := binary.BigEndian.AppendUint64(arr[:0], uint64(seed))
	for _, s := range [...]string{stackID, logicalID, token} {
		b = binary.BigEndian.AppendUint64(b, uint64(len(s)))
		b = append(b, s...)
	}
	return sha256.Sum256(b)
}

// byteStream yields bytes of sha256(key || purpose || counter); the
// purpose is kept in two parts (their concatenation is what is hashed), so
// that callers need not join them.
type byteStream struct {
	key     entropyKey
	purpose string
	more    string
	counter uint64
	block   [sha256.Size]byte
	used    int // bytes of block already handed out
}

func (k entropyKey) stream(purpose string) *byteStream {
	return &byteStream{key: k, purpose: purpose, used: sha256.Size}
}

// stream2 is stream(purpose + more) without the concatenation.
func (k entropyKey) stream2(purpose, more string) *byteStream {
	return &byteStream{key: k, purpose: purpose, more: more, used: sha256.Size}
}

func (s *byteStream) next() byte {
	if s.used == len(s.block) {
		var arr [128]byte
		b := append(arr[:0], s.key[:]...)
		b = append(b, s.purpose...)
		b = append(b, s.more...)
		b = binary.BigEndian.AppendUint64(b, s.counter)
		s.counter++
		s.block = sha256.Sum256(b)
		s.used = 0
	}
	c := s.block[s.used]
	s.used++
	return c
}

// pick returns n characters of alphabet, uniformly (rejection sampling).
func (s *byteStream) pick(alphabet string, n int) string {
	var b strings.Builder
	b.Grow(n)
	limit := 256 - 256%len(alphabet)
	for i := 0; i < n; {
		c := int(s.next())
		if c >= limit {
			continue
		}
		b.WriteByte(alphabet[c%len(alphabet)])
		i++
	}
	return b.String()
}

// uuid returns a version-4 UUID.
func (s *byteStream) uuid() string {
	var b [16]byte
	for i := range b {
		b[i] = s.next()
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	var h [36]byte
	hex.Encode(h[0:8], b[0:4])
	h[8] = '-'
	hex.Encode(h[9:13], b[4:6])
	h[13] = '-'
	hex.Encode(h[14:18], b[6:8])
	h[18] = '-'
	hex.Encode(h[19:23], b[8:10])
	h[23] = '-'
	hex.Encode(h[24:36], b[10:16])
	return string(h[:])
}

const (
	alphaUpperNum = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	alphaLowerNum = "abcdefghijklmnopqrstuvwxyz0123456789"
	alphaMixedNum = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	alphaHex      = "0123456789abcdef"
	alphaHexUpper = "0123456789ABCDEF"
	alphaDigits   = "0123456789"
)
