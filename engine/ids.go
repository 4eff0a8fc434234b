package engine

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"strconv"
	"strings"
)

// Identifiers are derived, never random: a UUID is the SHA-256 of the seed,
// what it names and a counter (or, for stack events, the event's sequence
// number), shaped as a version 4 UUID. The same seed and the same calls give
// the same identifiers, byte for byte.

// deriveUUID returns a version-4-shaped UUID derived from seed, n and parts:
// the SHA-256 of seed and n (big-endian) and of each part followed by a NUL.
func deriveUUID(seed int64, n uint64, parts ...string) string {
	var buf [160]byte
	b := binary.BigEndian.AppendUint64(buf[:0], uint64(seed))
	b = binary.BigEndian.AppendUint64(b, n)
	for _, p := range parts {
		b = append(b, p...)
		b = append(b, 0)
	}
	sum := sha256.Sum256(b)
	u := sum[:16]
	u[6] = u[6]&0x0f | 0x40 // version 4
	u[8] = u[8]&0x3f | 0x80 // RFC 4122 variant
	var out [36]byte
	hex.Encode(out[0:8], u[0:4])
	out[8] = '-'
	hex.Encode(out[9:13], u[4:6])
	out[13] = '-'
	hex.Encode(out[14:18], u[6:8])
	out[18] = '-'
	hex.Encode(out[19:23], u[8:10])
	out[23] = '-'
	hex.Encode(out[24:36], u[10:16])
	return string(out[:])
}

// uuid returns a new identifier for what parts name, counted in the
// transaction (so that a refused call, which aborts, uses none).
func (tx *txn) uuid(parts ...string) string {
	tx.Meta.IDs++
	return deriveUUID(tx.Store.ID.Seed, tx.Meta.IDs, parts...)
}

// arn builds an ARN of CloudFormation in the store's account and region.
func (tx *txn) arn(resource string) string {
	id := tx.Store.ID
	return "arn:" + id.Partition + ":cloudformation:" + id.Region + ":" + id.AccountID + ":" + resource
}

// newStackID returns the ARN of a new stack:
// arn:aws:cloudformation:REGION:ACCOUNT:stack/NAME/UUID.
func (tx *txn) newStackID(name string) string {
	return tx.arn("stack/" + name + "/" + tx.uuid("stack", name))
}

// newChangeSetID returns the ARN of a new change set:
// arn:aws:cloudformation:REGION:ACCOUNT:changeSet/NAME/UUID.
func (tx *txn) newChangeSetID(stackName, name string) string {
	return tx.arn("changeSet/" + name + "/" + tx.uuid("changeSet", stackName, name))
}

// newToken returns a client request token for what parts name (an
// operation the caller gave no token for, a handler request). It is a UUID,
// which ClientRequestToken's pattern [a-zA-Z0-9][-a-zA-Z0-9]* accepts.
func (tx *txn) newToken(parts ...string) string {
	return tx.uuid(append([]string{"token"}, parts...)...)
}

// stackEventID is the EventId of a stack's own event: a UUID derived from
// the stack and the event's sequence number, as AWS gives stack events UUIDs.
func stackEventID(seed int64, stackID string, seq uint64) string {
	return deriveUUID(seed, seq, "event", stackID)
}

// resourceEventID is the EventId of a resource event, as AWS makes it:
// LOGICALID-STATUS-TIMESTAMP (milliseconds, UTC). In virtual time one
// resource can reach the same status twice at one instant (the two
// CREATE_IN_PROGRESS events of a create that answers at once); the second
// and later ones get "-2", "-3"... so that every EventId stays unique.
func resourceEventID(logicalID, status, timestamp string, dup uint16) string {
	var b strings.Builder
	b.Grow(len(logicalID) + len(status) + len(timestamp) + 8)
	b.WriteString(logicalID)
	b.WriteByte('-')
	b.WriteString(status)
	b.WriteByte('-')
	b.WriteString(timestamp)
	if dup > 0 {
		b.WriteByte('-')
		b.WriteString(strconv.Itoa(int(dup) + 1))
	}
	return b.String()
}
