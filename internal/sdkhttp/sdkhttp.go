package sdkhttp

import (
	"io"
	"net/http"

	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
)

// Doer is what aws-sdk-go-v2 takes as its HTTPClient option.
type Doer interface {
	Do(*http.Request) (*http.Response, error)
}

// Client is the SDK's default HTTP client (awshttp.NewBuildableClient)
// with request bodies that offer only Read and Close (see the package
// doc).
func Client() Doer { return readOnlyBodies{awshttp.NewBuildableClient()} }

// Wrap gives next's requests bodies that offer only Read and Close.
func Wrap(next Doer) Doer { return readOnlyBodies{next} }

type readOnlyBodies struct{ next Doer }

func (c readOnlyBodies) Do(r *http.Request) (*http.Response, error) {
	if r.Body != nil && r.Body != http.NoBody {
		r.Body = readOnlyBody{r.Body}
	}
	return c.next.Do(r)
}

// readOnlyBody hides every method of the body but Read and Close.
type readOnlyBody struct{ rc io.ReadCloser }

func (b readOnlyBody) Read(p []byte) (int, error) { return b.rc.Read(p) }
func (b readOnlyBody) Close() error               { return b.rc.Close() }
