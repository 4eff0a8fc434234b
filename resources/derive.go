package resources

import "crypto/sha256"

// Derivations compute read-only values that the overlay language cannot
// say, from the model a create or an update settled: one function per
// type, run after the overlay's values and the generated ones, on create
// and on update (update set; the model holds the object's read-only values
// then). They answer the same for the same model (what they make up is
// drawn from the resource's identifier), so an update that changes nothing
// they read changes nothing they write.
var derivations = map[string]func(e *env, update bool){
	"AWS::EC2::VPCEndpoint":    deriveVPCEndpoint,
	"AWS::Route53::HostedZone": deriveHostedZone,
}

// drawn is n characters of alphabet made from a resource's identifier and
// a purpose: the same for the same resource, on every run.
func drawn(id, purpose, alphabet string, n int) string {
	sum := sha256.Sum256([]byte(purpose + "\x00" + id))
	out := make([]byte, n)
	for i := range out {
		if i > 0 && i%len(sum) == 0 {
			sum = sha256.Sum256(sum[:])
		}
		out[i] = alphabet[int(sum[i%len(sum)])%len(alphabet)]
	}
	return string(out)
}
