// Package pyjson says whether a text is JSON as Python's json.loads reads
// it, and if not, what Python says: the AWS CLI parses every JSON argument
// (--cli-input-json, --parameters '[...]', --tags, --filters) with
// json.loads and prints its error as
//
//	Error parsing parameter 'cli-input-json': Invalid JSON: Expecting ',' delimiter: line 1 column 19 (char 18)
//
// so stacksim's CLI, which answers as the AWS CLI does, says the same, at
// the same place. encoding/json names other problems at other offsets
// ("invalid character '}' looking for beginning of object key string"),
// and its Decoder accepts text after the first value, which Python
// refuses ("Extra data").
//
// Check follows CPython's scanner (Modules/_json.c, as json.loads uses it
// with strict=True): the same messages, at the same character index, with
// Python's line and column. It only checks; callers decode with
// encoding/json once the text is good. It accepts what Python accepts,
// NaN and Infinity included, which encoding/json then refuses in its own
// words.
//
// It is a leaf: it imports nothing of this module.
package pyjson
