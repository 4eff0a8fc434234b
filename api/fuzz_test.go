package api

import (
	"bytes"
	"errors"
	"fmt"
	"net/url"
	"sort"
	"testing"
)

// FuzzFormDecoder feeds arbitrary forms to the decoder and the model's
// checks of every operation served: they answer a *formError or a message,
// never panic, and never fail as stacksim's own bug (a plain error is a
// field the decoder could not fill: a mismatch between the SDK's schema and
// its struct).
func FuzzFormDecoder(f *testing.F) {
	seeds := []string{
		"StackName=app&TemplateBody=Resources%3A+%7B%7D",
		"Parameters.member.1.ParameterKey=Env&Parameters.member.1.ParameterValue=prod&Parameters.member.2.UsePreviousValue=true",
		"Tags=&NotificationARNs=&Capabilities.member.1=CAPABILITY_IAM",
		"Tags.member.1.Key=a&Tags.member.1.Value=b&Tags.member.10.Key=c",
		"ResourcesToImport.member.1.ResourceIdentifier.entry.1.key=Name&ResourcesToImport.member.1.ResourceIdentifier.entry.1.value=x",
		"RollbackConfiguration.RollbackTriggers.member.1.Arn=arn&RollbackConfiguration.MonitoringTimeInMinutes=5",
		"TimeoutInMinutes=99999999999&DisableRollback=TRUE&EnableTerminationProtection=no",
		"Tags.member.0.Key=x&Tags.member.01.Key=y&Tags.member.-1.Key=z",
		"StackName.member.1=x&Parameters=x&Parameters.member=y",
		"DeploymentConfig.Mode=STANDARD&DeploymentConfig.DisableRollback=false",
		"%zz=1&a..b=2&.=3",
	}
	for _, s := range seeds {
		f.Add(s)
	}
	names := make([]string, 0, len(operations()))
	for name := range operations() {
		names = append(names, name)
	}
	sort.Strings(names)
	f.Fuzz(func(t *testing.T, body string) {
		vals, err := url.ParseQuery(body)
		if err != nil {
			return // answered MalformedQueryString before the decoder
		}
		tree := parseFormTree(vals)
		for _, name := range names {
			op := operations()[name]
			in := op.newInput()
			if err := decodeForm(tree, op.inputSchema, in); err != nil {
				var fe *formError
				if !errors.As(err, &fe) {
					t.Fatalf("%s: %q: not a form error: %v", name, body, err)
				}
				continue
			}
			_ = validateInput(modelOperations[name], in)
			_ = op.givenUnsupported(in)
		}
	})
}

// FuzzAWSChunked feeds arbitrary bodies to the aws-chunked decoder of S3's
// PutObject: it answers an error or the data, never panics; and the data
// of any chunking, encoded, comes back whole.
func FuzzAWSChunked(f *testing.F) {
	f.Add([]byte("5;chunk-signature=abc\r\nhello\r\n0\r\nx-amz-checksum-crc32:AAAA\r\n\r\n"), []byte("hello world"), uint8(3))
	f.Add([]byte("ffffffffffff\r\n"), []byte(""), uint8(1))
	f.Add([]byte("zz\r\n"), []byte("x"), uint8(0))
	f.Fuzz(func(t *testing.T, raw, data []byte, size uint8) {
		_, _ = decodeAWSChunked(raw)
		n := int(size%16) + 1
		var enc []byte
		for i := 0; i < len(data); i += n {
			chunk := data[i:min(i+n, len(data))]
			enc = append(enc, fmt.Sprintf("%x;chunk-signature=0\r\n", len(chunk))...)
			enc = append(append(enc, chunk...), "\r\n"...)
		}
		enc = append(enc, "0\r\nx-amz-checksum-crc32:AAAA\r\n\r\n"...)
		got, err := decodeAWSChunked(enc)
		if err != nil || !bytes.Equal(got, data) {
			t.Fatalf("%q in chunks of %d: got %q, %v", data, n, got, err)
		}
	})
}
