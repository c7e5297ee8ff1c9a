package structural
func fixGoConversion(lang *Lang, p *Pattern) {}
