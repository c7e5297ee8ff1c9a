package cli

import (
	"bytes"
	"fmt"
	"os"

	"github.com/evgrep/evgrep/internal/oserr"
)

// ConfigEnv names the file of default arguments, as rg's.
const ConfigEnv = "RIPGREP_CONFIG_PATH"

// withConfigArgs prepends the arguments of the RIPGREP_CONFIG_PATH file
// (one per line, trimmed; blank lines and lines starting with # ignored)
// unless --no-config is given. A file that cannot be read is reported and
// ignored, as rg does; the messages are returned for the caller to print.
func withConfigArgs(argv []string) ([]string, []string) {
	path := os.Getenv(ConfigEnv)
	if path == "" {
		return argv, nil
	}
	for _, a := range argv {
		if a == "--" {
			break
		}
		if a == "--no-config" {
			return argv, nil
		}
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return argv, []string{fmt.Sprintf("%s: %s", path, oserr.Text(err))}
	}
	var args []string
	for _, line := range bytes.Split(data, []byte("\n")) {
		line = bytes.TrimSpace(line)
		if len(line) == 0 || line[0] == '#' {
			continue
		}
		args = append(args, string(line))
	}
	return append(args, argv...), nil
}
