package funcs

import (
	"errors"
	"strconv"
	"strings"
)

// DatetimeFormats are the formats datetime accepts, in documentation
// order; a literal format outside this list is a static error.
var DatetimeFormats = []string{"unix", "rfc3339", "tag", "tagcompact"}

var datetimeLayouts = map[string]string{
	"rfc3339":    "2006-01-02T15:04:05Z07:00",
	"tag":        "2006-01-02--15-04-05",
	"tagcompact": "20060102150405",
}

func envFuncs() []Func {
	return []Func{
		{
			Name:      "file",
			Signature: sig(tBinary, param("path", tString)),
			ParamDocs: []string{"The file to read: a path relative to the blueprint's directory."},
			Summary:   "Reads a file and returns its contents as binary data.",
			Doc: "Reads a local file below the blueprint's directory; paths that leave it (through `..` or " +
				"a symbolic link) are refused. Remote sources (`s3://`, `gs://`, ...) depend on the " +
				"implementation and are not read by blueprint-ls. The result is binary: used directly as a " +
				"field it becomes UTF-8 text; pass it through `utf8` to use it as text in another function." + noneNote,
			Examples: []Example{
				{Expr: `file("certificates/server.pem")`},
				{Expr: `file("dist/function.zip")`},
				{Expr: `file("images/app.tar")`},
				{Expr: `file("s3://my-bucket/certificates/server.pem")`, Note: "remote; not read by blueprint-ls"},
				{Expr: `base64encode(file("certificates/server.pem"))`},
			},
			Impl: func(c *Ctx, args []Value) (Value, error) {
				p, err := argStr(args, 0)
				if err != nil {
					return None, err
				}
				b, err := c.Env.ReadFile(c.Context, p)
				if err != nil {
					return None, &RuntimeError{Arg: 1, Err: err}
				}
				return Binary(b), nil
			},
			Flags: EnvDependent,
		},
		{
			Name:      "http_resource",
			Signature: sig(tBinary, param("url", tString)),
			ParamDocs: []string{"The public http:// or https:// URL to fetch."},
			Summary:   "Fetches a public HTTP(S) URL and returns the body as binary data.",
			Doc: "blueprint-ls does not touch the network unless asked to: by default the call is not " +
				"evaluated and reports that network access is off." + noneNote,
			Examples: []Example{
				{Expr: `http_resource("https://raw.githubusercontent.com/example/config/main/app.json")`},
				{Expr: `http_resource("https://github.com/example/app/releases/download/v1.0.0/app.zip")`},
				{Expr: `base64encode(http_resource("https://raw.githubusercontent.com/example/scripts/main/init.sh"))`},
			},
			Impl: func(c *Ctx, args []Value) (Value, error) {
				u, err := argStr(args, 0)
				if err != nil {
					return None, err
				}
				if !strings.HasPrefix(u, "http://") && !strings.HasPrefix(u, "https://") {
					return None, argError(0, "%q is not an http:// or https:// URL", u)
				}
				b, err := c.Env.HTTPResource(c.Context, u)
				if err != nil {
					if errors.Is(err, ErrNetworkOff) {
						return None, &RuntimeError{Err: err}
					}
					return None, &RuntimeError{Arg: 1, Err: err}
				}
				return Binary(b), nil
			},
			Flags: EnvDependent,
		},
		{
			Name:      "uuid",
			Signature: sig(tString),
			Summary:   "Generates a random (version 4) UUID.",
			Doc:       "Every call returns a new UUID, so a value using it changes on every deployment.",
			Examples:  []Example{{Expr: `uuid()`}, {Expr: `resource-${uuid()}`, Note: "in an interpolation"}},
			Impl: func(c *Ctx, args []Value) (Value, error) {
				u, err := c.Env.UUID()
				if err != nil {
					return None, &RuntimeError{Err: err}
				}
				return String(u), nil
			},
			Flags: EnvDependent,
		},
		{
			Name:      "cwd",
			Signature: sig(tString),
			Summary:   "Returns the current working directory.",
			Doc:       "The directory set on the host, by the tool, or by the user (blueprint-ls takes it from its configuration).",
			Examples:  []Example{{Expr: `cwd()`}, {Expr: `${cwd()}/blueprints/core-infra.blueprint.yaml`, Note: "in an interpolation"}},
			Impl: func(c *Ctx, args []Value) (Value, error) {
				d, err := c.Env.Cwd()
				if err != nil {
					return None, &RuntimeError{Err: err}
				}
				return String(d), nil
			},
			Flags: EnvDependent,
		},
		{
			Name:      "datetime",
			Signature: sig(tString, param("format", tString)),
			ParamDocs: []string{"One of unix, rfc3339, tag, tagcompact."},
			Summary:   "Returns the current UTC date and time in a given format.",
			Doc: "Formats (always UTC): `unix` — seconds since the Unix epoch (`1672671845`); `rfc3339` — " +
				"`2023-01-02T15:04:05Z`; `tag` — `2023-01-02--15-04-05`; `tagcompact` — `20230102150405`. " +
				"Useful for image tags and object keys. Any other format is an error." + noneNote,
			Examples: []Example{
				{Expr: `datetime("tag")`, Result: `"2023-01-02--15-04-05"`, Note: "at 2023-01-02 15:04:05 UTC"},
				{Expr: `datetime("unix")`, Result: `"1672671845"`, Note: "at 2023-01-02 15:04:05 UTC"},
			},
			Impl: func(c *Ctx, args []Value) (Value, error) {
				f, err := argStr(args, 0)
				if err != nil {
					return None, err
				}
				now := c.Env.Now().UTC()
				if f == "unix" {
					return String(strconv.FormatInt(now.Unix(), 10)), nil
				}
				layout, ok := datetimeLayouts[f]
				if !ok {
					return None, argError(0, "unknown format %q: use one of %s", f, strings.Join(DatetimeFormats, ", ")).
						publicly("unknown format " + SensitiveText + ": use one of " + strings.Join(DatetimeFormats, ", "))
				}
				return String(now.Format(layout)), nil
			},
			Flags: EnvDependent,
		},
	}
}

// coreFuncs returns every core function.
func coreFuncs() []Func {
	var all []Func
	all = append(all, dataFuncs()...)
	all = append(all, stringFuncs()...)
	all = append(all, collectionFuncs()...)
	all = append(all, logicFuncs()...)
	all = append(all, envFuncs()...)
	return all
}
