package cx

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// maxSkipDepth bounds the nesting of values under unknown top-level keys.
const maxSkipDepth = 64

// DecodeRequest reads an upload body {"scheduleId": "...", "data": [{...}]}
// as a stream: the top level by tokens, then one row at a time, so that it
// holds no more than one row's text and stops as soon as the row limit is
// passed. Unknown top-level keys are skipped. It returns a *RequestError with INVALID_REQUEST (not JSON, not
// UTF-8, wrong shape, a value that is not a string, nesting too deep),
// SCHEDULE_ID_REQUIRED, DATA_EMPTY or ROWS_LIMIT.
func DecodeRequest(r io.Reader, limits Limits) (*Request, error) {
	d := decoder{dec: json.NewDecoder(&utf8Reader{r: r}), b: NewBuilder("", limits)}
	d.dec.UseNumber() // a number is refused as a value, never converted
	if err := d.body(); err != nil {
		return nil, err
	}
	req, err := d.b.Request()
	var re *RequestError
	if errors.As(err, &re) && re.Code == CodeScheduleIDRequired && d.scheduleKey != "" {
		re.Message += fmt.Sprintf(" (the body has %q; keys are case-sensitive)", d.scheduleKey)
	}
	return req, err
}

type decoder struct {
	dec         *json.Decoder
	b           *Builder
	scheduleKey string // a top-level key that is scheduleId in another case
}

func (d *decoder) body() error {
	if err := d.delim('{', "the body must be a JSON object"); err != nil {
		return err
	}
	var sawSchedule, sawData bool
	for d.dec.More() {
		key, err := d.key()
		if err != nil {
			return err
		}
		if (key == "scheduleId" && sawSchedule) || (key == "data" && sawData) {
			return invalidf("the body has the key %q twice", key)
		}
		switch key {
		case "scheduleId":
			sawSchedule = true
			tok, err := d.token()
			if err != nil {
				return err
			}
			s, ok := tok.(string)
			if !ok {
				return invalidf("scheduleId must be a string, not %s", kind(tok))
			}
			d.b.SetScheduleID(s)
		case "data":
			sawData = true
			if err := d.rows(); err != nil {
				return err
			}
		default:
			if strings.EqualFold(key, "scheduleId") {
				d.scheduleKey = key
			}
			if err := d.skip(); err != nil {
				return err
			}
		}
	}
	if _, err := d.token(); err != nil { // the closing brace
		return err
	}
	if _, err := d.dec.Token(); err != io.EOF {
		return invalidf("the body holds more than one JSON value")
	}
	return nil
}

// rows reads the data array. Each row is read whole by the decoder, whose
// scanner is iterative and bounds nesting, and then walked as a flat object
// by eachMember, which is many times faster than a token per key and value.
func (d *decoder) rows() error {
	if err := d.delim('[', "data must be an array of objects"); err != nil {
		return err
	}
	var raw json.RawMessage
	for i := 0; d.dec.More(); i++ {
		if err := d.b.StartRow(); err != nil {
			return err
		}
		if err := d.dec.Decode(&raw); err != nil {
			return d.fail(err)
		}
		if raw[0] != '{' {
			return invalidf("data[%d] must be an object, not %s", i, kindOf(raw))
		}
		err := eachMember(raw, func(key string, value []byte) error {
			if value[0] != '"' {
				return invalidf("data[%d], key %q: the value must be a string, not %s", i, key, kindOf(value))
			}
			return d.b.Set(key, unquote(value))
		})
		if err != nil {
			return err
		}
		d.b.EndRow()
	}
	_, err := d.token() // the closing bracket
	return err
}

// skip reads past one value of any kind, refusing deep nesting.
func (d *decoder) skip() error {
	depth := 0
	for {
		tok, err := d.token()
		if err != nil {
			return err
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			depth++
			if depth > maxSkipDepth {
				return invalidf("the body is nested too deeply")
			}
		case json.Delim('}'), json.Delim(']'):
			depth--
		}
		if depth == 0 {
			return nil
		}
	}
}

func (d *decoder) delim(want json.Delim, msg string) error {
	tok, err := d.token()
	if err != nil {
		return err
	}
	if tok != want {
		return invalidf("%s, not %s", msg, kind(tok))
	}
	return nil
}

func (d *decoder) key() (string, error) {
	tok, err := d.token()
	if err != nil {
		return "", err
	}
	return tok.(string), nil // the decoder only yields strings in key position
}

// token returns the next token, turning every decoding failure into an
// INVALID_REQUEST *RequestError.
func (d *decoder) token() (json.Token, error) {
	tok, err := d.dec.Token()
	if err != nil {
		return nil, d.fail(err)
	}
	return tok, nil
}

// fail turns a decoding error into an INVALID_REQUEST *RequestError.
func (d *decoder) fail(err error) error {
	var se *json.SyntaxError
	switch {
	case errors.Is(err, errInvalidUTF8):
		return invalidf("the body is not valid UTF-8 text")
	case err == io.EOF || errors.Is(err, io.ErrUnexpectedEOF):
		return invalidf("the body ends before the JSON is complete")
	case errors.As(err, &se) && strings.Contains(se.Error(), "max depth"):
		return invalidf("the body is nested too deeply")
	case errors.As(err, &se):
		return invalidf("the body is not valid JSON: %s (at byte %d)", se, se.Offset)
	default:
		return invalidf("the body is not valid JSON: %s", err)
	}
}

func invalidf(format string, args ...any) *RequestError {
	return requestErrorf(CodeInvalidRequest, format, args...)
}

// kind names the JSON type of a token for a message.
func kind(tok json.Token) string {
	switch tok.(type) {
	case string:
		return "a string"
	case float64, json.Number:
		return "a number"
	case bool:
		return "a boolean"
	case nil:
		return "null"
	}
	switch tok {
	case json.Delim('{'):
		return "an object"
	case json.Delim('['):
		return "an array"
	}
	return "the end of a value"
}

// kindOf names the JSON type of a raw value for a message.
func kindOf(raw []byte) string {
	switch raw[0] {
	case '"':
		return "a string"
	case '{':
		return "an object"
	case '[':
		return "an array"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}
