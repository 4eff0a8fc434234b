package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// checkDir refuses a flag's directory that is not one, saying why: it does
// not exist, it is a file, or it cannot be read.
func checkDir(flag, path string) error {
	st, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%s %s: no such directory", flag, path)
	case err != nil:
		return fmt.Errorf("%s %s: %w", flag, path, errors.Unwrap(err))
	case !st.IsDir():
		return fmt.Errorf("%s %s: a file, not a directory", flag, path)
	}
	return nil
}
