package broken

// Good is fine.
func Good() int {
	return 1
}

func Bad(x int) int {
	if x > 0 {
		return x +
	}
	return 0
}

func AlsoGood() string {
	return "ok"
}
