package paramstore

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Secret is a Secrets Manager secret as a dynamic reference reads it.
type Secret struct {
	// ARN and Name identify the secret; a reference names either.
	ARN, Name string
	// SecretString is its current value (version stage AWSCURRENT).
	SecretString string
}

// SecretLookup finds a secret by name or ARN.
type SecretLookup func(id string) (Secret, bool)

// Messages of a secretsmanager reference that cannot be read, as
// CloudFormation reports them.
const (
	// MsgSecretNotFound is Secrets Manager's ResourceNotFoundException.
	MsgSecretNotFound = "Secrets Manager can't find the specified secret."
	// MsgNoJSONKey: the key is not in the secret's JSON.
	MsgNoJSONKey = "Could not find a value associated with JSONKey in SecretString"
)

// SecretValue is what a reference with jsonKey reads of a secret string:
// the whole string without a key, the key's value with one (a JSON string
// as its text, any other JSON value as written).
func SecretValue(secretString, jsonKey string) (string, error) {
	if jsonKey == "" {
		return secretString, nil
	}
	d := json.NewDecoder(strings.NewReader(secretString))
	d.UseNumber()
	var m map[string]json.RawMessage
	if err := d.Decode(&m); err != nil {
		return "", errors.New(MsgNoJSONKey)
	}
	raw, ok := m[jsonKey]
	if !ok {
		return "", errors.New(MsgNoJSONKey)
	}
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return s, nil
	}
	return string(bytes.TrimSpace(raw)), nil
}

// Character sets of GenerateSecretString (Secrets Manager's
// GetRandomPassword).
const (
	lowerChars       = "abcdefghijklmnopqrstuvwxyz"
	upperChars       = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	digitChars       = "0123456789"
	punctuationChars = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"
)

// GenerateSecretString makes the secret string of a secret created with
// GenerateSecretString (its properties, as the template gives them):
// a password drawn from the allowed characters (32 by default; one of each
// included type when RequireEachIncludedType, the default), alone or, with
// SecretStringTemplate and GenerateStringKey, set under that key of the
// template's JSON. The password is derived from key (the secret's ARN), so
// that the same secret always reads the same.
func GenerateSecretString(spec map[string]any, key string) (string, error) {
	length := 32
	if v, ok := spec["PasswordLength"]; ok {
		n, err := strconv.Atoi(fmt.Sprint(v))
		if err != nil || n < 1 || n > 4096 {
			return "", fmt.Errorf("PasswordLength %v: a number from 1 to 4096", v)
		}
		length = n
	}
	flag := func(name string, def bool) bool {
		v, ok := spec[name]
		if !ok {
			return def
		}
		b, err := strconv.ParseBool(fmt.Sprint(v))
		if err != nil {
			return def
		}
		return b
	}
	exclude, _ := spec["ExcludeCharacters"].(string)
	var sets []string
	add := func(excluded bool, chars string) {
		if excluded {
			return
		}
		var kept strings.Builder
		for _, c := range chars {
			if !strings.ContainsRune(exclude, c) {
				kept.WriteRune(c)
			}
		}
		if kept.Len() > 0 {
			sets = append(sets, kept.String())
		}
	}
	add(flag("ExcludeLowercase", false), lowerChars)
	add(flag("ExcludeUppercase", false), upperChars)
	add(flag("ExcludeNumbers", false), digitChars)
	add(flag("ExcludePunctuation", false), punctuationChars)
	if flag("IncludeSpace", false) {
		add(false, " ")
	}
	if len(sets) == 0 {
		return "", errors.New("GenerateSecretString excludes every character")
	}
	all := strings.Join(sets, "")
	seed := sha256.Sum256([]byte("stacksim secret\x00" + key))
	n := uint64(0)
	next := func(limit int) int {
		h := sha256.Sum256(append(seed[:], byte(n), byte(n>>8), byte(n>>16)))
		n++
		return int(binary.BigEndian.Uint64(h[:8]) % uint64(limit))
	}
	pw := make([]byte, length)
	for i := range pw {
		pw[i] = all[next(len(all))]
	}
	if flag("RequireEachIncludedType", true) && length >= len(sets) {
		for i, set := range sets {
			pw[i] = set[next(len(set))]
		}
		for i := len(pw) - 1; i > 0; i-- { // shuffle the required ones in
			j := next(i + 1)
			pw[i], pw[j] = pw[j], pw[i]
		}
	}
	password := string(pw)
	tmpl, _ := spec["SecretStringTemplate"].(string)
	genKey, _ := spec["GenerateStringKey"].(string)
	if tmpl == "" || genKey == "" {
		return password, nil
	}
	d := json.NewDecoder(strings.NewReader(tmpl))
	d.UseNumber()
	var m map[string]any
	if err := d.Decode(&m); err != nil {
		return "", fmt.Errorf("SecretStringTemplate is not a JSON object: %v", err)
	}
	m[genKey] = password
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false) // Secrets Manager writes < > & as they are
	if err := enc.Encode(m); err != nil {
		return "", err
	}
	return strings.TrimSuffix(out.String(), "\n"), nil
}
