package nearest

import "testing"

func TestName(t *testing.T) {
	known := []string{"s3-dir", "service-token", "contract"}
	for _, tc := range []struct{ got, want string }{
		{"s3dir", "s3-dir"},
		{"S3-DIR", "s3-dir"},
		{"contrat", "contract"},
		{"service-tokens", "service-token"},
		{"query", ""},
		{"", ""},
	} {
		if got := Name(tc.got, known); got != tc.want {
			t.Errorf("Name(%q) = %q, want %q", tc.got, got, tc.want)
		}
	}
}
