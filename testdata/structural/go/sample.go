package sample

import (
	"fmt"
	"os"
)

func load(path string) ([]byte, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	return data, nil
}

func list(names []string) []string {
	var out []string
	for _, n := range names {
		out = append(out, n)
	}
	fmt.Println("listed", len(out))
	return out
}

func main() {
	if _, err := load("x"); err != nil {
		fmt.Println(err)
	}
	fmt.Println(list([]string{"a", "b"}))
}
