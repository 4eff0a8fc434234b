// Package sdkhttp is the HTTP client the tests give aws-sdk-go-v2 when
// they drive `stacksim serve`: the SDK's own client, with one race of
// smithy-go's removed.
//
// The race: smithy-go wraps a request's body in a reader whose WriteTo
// answers io.EOF once the body is closed, and closes the body as soon as
// client.Do returns, that is as soon as the response's headers arrive.
// net/http's transport, after it has written the body, copies what may
// remain of it to io.Discard to check that nothing does; io.Copy calls
// WriteTo, takes that io.EOF for a failure, and the transport closes the
// connection, while the SDK is still reading the response from it:
// "deserialization failed, read tcp ...: use of closed network
// connection". Against AWS the response comes too late to win the race;
// against a server on loopback that answers in microseconds it is won
// now and then (3 times in some 30,000 calls of the api package's SDK
// tests under the race detector). Hiding WriteTo (Client does) makes
// io.Copy read, and a read of the closed body ends the copy cleanly.
//
// It is a leaf: it imports nothing of this module.
package sdkhttp
