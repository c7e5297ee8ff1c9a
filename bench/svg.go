package main

import (
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"strings"
)

// Geometry of the ratio chart, in SVG user units (pixels).
const (
	svgWidth      = 960
	svgLabelRight = 300 // labels end here, right-aligned
	svgPlotLeft   = 320
	svgPlotRight  = 880
	svgTop        = 70 // first row
	svgRowHeight  = 22
	svgBarHeight  = 14
	svgFooter     = 60
)

// Bar colours: at or under rg, within the 1.5× limit, above it.
const (
	colourFaster = "#2e7d32"
	colourNear   = "#f9a825"
	colourSlower = "#c62828"
	colourMuted  = "#757575"
)

// chartBar is one row of the ratio chart.
type chartBar struct {
	// Label names the job.
	Label string
	// Ratio is evgrep/rg; nil when there is none.
	Ratio *float64
	// Note explains a missing ratio or flags a line-count mismatch.
	Note string
	// Alarm draws the note in red.
	Alarm bool
}

// chartBars turns job results into chart rows.
func chartBars(jobs []JobResult) []chartBar {
	bars := make([]chartBar, 0, len(jobs))
	for _, j := range jobs {
		b := chartBar{Label: j.ID, Ratio: j.Ratio}
		if j.Ratio == nil {
			b.Note = "no ratio (evgrep or rg not timed)"
		}
		if j.EvgrepAgrees != nil && !*j.EvgrepAgrees {
			b.Note, b.Alarm = "MISMATCH: line count differs from rg", true
		}
		bars = append(bars, b)
	}
	return bars
}

// logScale maps ratios to x positions on a log2 axis spanning powers of
// two around every ratio, 1 included.
type logScale struct {
	lo, hi float64 // log2 of the axis ends
}

// newLogScale fits the axis to the ratios.
func newLogScale(bars []chartBar) logScale {
	lo, hi := -1.0, 1.0 // 0.5× .. 2× at least
	for _, b := range bars {
		if b.Ratio == nil || !(*b.Ratio > 0) || math.IsInf(*b.Ratio, 0) {
			continue
		}
		l := math.Log2(*b.Ratio)
		lo = math.Min(lo, math.Floor(l))
		hi = math.Max(hi, math.Ceil(l))
	}
	return logScale{lo: lo, hi: hi}
}

// x is the position of ratio r, clamped to the axis.
func (s logScale) x(r float64) float64 {
	l := s.lo
	if r > 0 && !math.IsInf(r, 0) {
		l = math.Max(s.lo, math.Min(s.hi, math.Log2(r)))
	}
	return svgPlotLeft + (l-s.lo)/(s.hi-s.lo)*(svgPlotRight-svgPlotLeft)
}

// esc escapes text for SVG character data and attribute values.
func esc(s string) string {
	var b strings.Builder
	_ = xml.EscapeText(&b, []byte(s)) // a strings.Builder never fails
	return b.String()
}

// barColour picks the colour of a ratio.
func barColour(r float64) string {
	switch {
	case r <= targetMedianRatio:
		return colourFaster
	case r <= targetMaxRatio:
		return colourNear
	}
	return colourSlower
}

// writeSVG draws the evgrep/rg ratio of every job as a horizontal bar on a
// log axis centred on 1× (left of the line: evgrep faster).
func writeSVG(w io.Writer, title, subtitle string, bars []chartBar) error {
	s := newLogScale(bars)
	height := svgTop + len(bars)*svgRowHeight + svgFooter
	plotBottom := svgTop + len(bars)*svgRowHeight
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="12">`+"\n",
		svgWidth, height, svgWidth, height)
	fmt.Fprintf(&b, `<rect x="0" y="0" width="%d" height="%d" fill="#ffffff"/>`+"\n", svgWidth, height)
	fmt.Fprintf(&b, `<text x="16" y="24" font-size="16" font-weight="bold">%s</text>`+"\n", esc(title))
	fmt.Fprintf(&b, `<text x="16" y="44" fill="%s">%s</text>`+"\n", colourMuted, esc(subtitle))
	// Grid: one line per power of two, the 1× line bold, the 1.5× limit dashed.
	for e := s.lo; e <= s.hi; e++ {
		r := math.Exp2(e)
		x := s.x(r)
		stroke, width := "#dddddd", 1
		if e == 0 {
			stroke, width = "#000000", 2
		}
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="%s" stroke-width="%d"/>`+"\n",
			x, svgTop-8, x, plotBottom, stroke, width)
		fmt.Fprintf(&b, `<text x="%.1f" y="%d" text-anchor="middle" fill="%s">%s×</text>`+"\n",
			x, plotBottom+16, colourMuted, esc(fmtRatioTick(r)))
	}
	lx := s.x(targetMaxRatio)
	fmt.Fprintf(&b, `<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="%s" stroke-dasharray="4 3"/>`+"\n",
		lx, svgTop-8, lx, plotBottom, colourSlower)
	one := s.x(1)
	for i, bar := range bars {
		y := svgTop + i*svgRowHeight
		mid := y + svgRowHeight/2
		fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="end" dominant-baseline="middle">%s</text>`+"\n",
			svgLabelRight, mid, esc(bar.Label))
		noteX, anchor := one+6, "start"
		if bar.Ratio != nil {
			r := *bar.Ratio
			x := s.x(r)
			left, width := math.Min(x, one), math.Abs(x-one)
			if width < 1 {
				width = 1
			}
			fmt.Fprintf(&b, `<rect x="%.1f" y="%d" width="%.1f" height="%d" fill="%s"><title>%s</title></rect>`+"\n",
				left, mid-svgBarHeight/2, width, svgBarHeight, barColour(r), esc(fmt.Sprintf("%s: %.3f×", bar.Label, r)))
			valueX, valueAnchor := x+4, "start"
			if r < 1 {
				valueX, valueAnchor = x-4, "end"
			}
			fmt.Fprintf(&b, `<text x="%.1f" y="%d" text-anchor="%s" dominant-baseline="middle">%.2f×</text>`+"\n",
				valueX, mid, valueAnchor, r)
			noteX, anchor = math.Max(x, one)+56, "start"
			if noteX > svgWidth-200 {
				noteX, anchor = math.Min(x, one)-56, "end"
			}
		}
		if bar.Note != "" {
			colour, weight := colourMuted, "normal"
			if bar.Alarm {
				colour, weight = colourSlower, "bold"
			}
			fmt.Fprintf(&b, `<text x="%.1f" y="%d" text-anchor="%s" dominant-baseline="middle" fill="%s" font-weight="%s">%s</text>`+"\n",
				noteX, mid, anchor, colour, weight, esc(bar.Note))
		}
	}
	fmt.Fprintf(&b, `<text x="16" y="%d" fill="%s">evgrep median wall time / rg median wall time, log scale. Left of the black line: evgrep faster. Dashed: the %.1f× limit.</text>`+"\n",
		plotBottom+40, colourMuted, targetMaxRatio)
	b.WriteString("</svg>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// fmtRatioTick prints an axis tick (a power of two) compactly.
func fmtRatioTick(r float64) string {
	if r >= 1 {
		return fmt.Sprintf("%g", r)
	}
	return fmt.Sprintf("%.3g", r)
}
