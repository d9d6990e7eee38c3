package lsp

import (
	"encoding/json"

	"go.lsp.dev/protocol"

	"github.com/blueprint-ls/blueprint-ls/source"
)

// clientCaps is the little the server needs to know about the client. It
// is read leniently from the raw initialize params: any field may be
// missing, null, false or of the wrong type, and that only means "not
// supported".
type clientCaps struct {
	name                   string
	encodings              []string
	configuration          bool // workspace/configuration requests
	pullDiagnostics        bool // textDocument/diagnostic
	diagnosticRefresh      bool // workspace/diagnostic/refresh
	hierarchicalSymbols    bool
	snippets               bool // completion items may be snippets
	insertReplace          bool // completion items may carry an InsertReplaceEdit
	lineFoldingOnly        bool
	foldingRangeLimit      int
	initializationOptions  json.RawMessage
	folders                []string // workspace folder paths
	watchRegistration      bool     // workspace/didChangeWatchedFiles may be registered
	publishDiagnosticsTags bool
	// createFiles: a workspace edit may create files
	// (workspace.workspaceEdit.resourceOperations has "create" and
	// documentChanges is supported).
	createFiles bool
	// resolveDocumentation: completionItem/resolve may fill in an
	// item's documentation.
	resolveDocumentation bool
	// itemDefaultsData: a completion list's itemDefaults.data applies to
	// its items.
	itemDefaultsData bool
	// itemDefaultsEditRange, itemDefaultsFormat: a completion list's
	// itemDefaults.editRange and insertTextFormat apply to its items.
	itemDefaultsEditRange bool
	itemDefaultsFormat    bool
}

func parseClientCaps(raw []byte) clientCaps {
	var root any
	_ = json.Unmarshal(raw, &root) // malformed params mean "no capabilities"
	c := clientCaps{
		name:                   str(dig(root, "clientInfo", "name")),
		configuration:          truthy(dig(root, "capabilities", "workspace", "configuration")),
		pullDiagnostics:        isObject(dig(root, "capabilities", "textDocument", "diagnostic")),
		diagnosticRefresh:      truthy(dig(root, "capabilities", "workspace", "diagnostics", "refreshSupport")),
		hierarchicalSymbols:    truthy(dig(root, "capabilities", "textDocument", "documentSymbol", "hierarchicalDocumentSymbolSupport")),
		watchRegistration:      truthy(dig(root, "capabilities", "workspace", "didChangeWatchedFiles", "dynamicRegistration")),
		snippets:               truthy(dig(root, "capabilities", "textDocument", "completion", "completionItem", "snippetSupport")),
		insertReplace:          truthy(dig(root, "capabilities", "textDocument", "completion", "completionItem", "insertReplaceSupport")),
		lineFoldingOnly:        truthy(dig(root, "capabilities", "textDocument", "foldingRange", "lineFoldingOnly")),
		publishDiagnosticsTags: isObject(dig(root, "capabilities", "textDocument", "publishDiagnostics", "tagSupport")),
	}
	if list, ok := dig(root, "capabilities", "workspace", "workspaceEdit", "resourceOperations").([]any); ok && truthy(dig(root, "capabilities", "workspace", "workspaceEdit", "documentChanges")) {
		for _, p := range list {
			c.createFiles = c.createFiles || str(p) == "create"
		}
	}
	if list, ok := dig(root, "capabilities", "textDocument", "completion", "completionItem", "resolveSupport", "properties").([]any); ok {
		for _, p := range list {
			c.resolveDocumentation = c.resolveDocumentation || str(p) == "documentation"
		}
	}
	if list, ok := dig(root, "capabilities", "textDocument", "completion", "completionList", "itemDefaults").([]any); ok {
		for _, p := range list {
			c.itemDefaultsData = c.itemDefaultsData || str(p) == "data"
			c.itemDefaultsEditRange = c.itemDefaultsEditRange || str(p) == "editRange"
			c.itemDefaultsFormat = c.itemDefaultsFormat || str(p) == "insertTextFormat"
		}
	}
	if n, ok := dig(root, "capabilities", "textDocument", "foldingRange", "rangeLimit").(float64); ok && n > 0 {
		c.foldingRangeLimit = int(n)
	}
	if list, ok := dig(root, "capabilities", "general", "positionEncodings").([]any); ok {
		for _, e := range list {
			if s, ok := e.(string); ok {
				c.encodings = append(c.encodings, s)
			}
		}
	}
	if list, ok := dig(root, "workspaceFolders").([]any); ok {
		for _, f := range list {
			if p := uriPath(str(dig(f, "uri"))); p != "" {
				c.folders = append(c.folders, p)
			}
		}
	}
	if len(c.folders) == 0 {
		if p := uriPath(str(dig(root, "rootUri"))); p != "" {
			c.folders = []string{p}
		} else if p := str(dig(root, "rootPath")); p != "" {
			c.folders = []string{p}
		}
	}
	if m, ok := root.(map[string]any); ok {
		if v, ok := m["initializationOptions"]; ok && v != nil {
			c.initializationOptions, _ = json.Marshal(v)
		}
	}
	return c
}

// dig follows keys through nested JSON objects; nil when any step is
// missing or not an object.
func dig(v any, keys ...string) any {
	for _, k := range keys {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[k]
	}
	return v
}

func truthy(v any) bool   { b, _ := v.(bool); return b }
func str(v any) string    { s, _ := v.(string); return s }
func isObject(v any) bool { _, ok := v.(map[string]any); return ok }

// negotiateEncoding picks the position encoding: UTF-8 when the client
// offers it (offsets are bytes, so it costs nothing), otherwise UTF-16,
// which every client must support, unless the client offers only UTF-32.
func negotiateEncoding(offered []string) source.Encoding {
	has := map[string]bool{}
	for _, e := range offered {
		has[e] = true
	}
	switch {
	case has[string(protocol.PositionEncodingKindUTF8)]:
		return source.UTF8
	case len(offered) == 0 || has[string(protocol.PositionEncodingKindUTF16)]:
		return source.UTF16
	case has[string(protocol.PositionEncodingKindUTF32)]:
		return source.UTF32
	}
	return source.UTF16
}

// serverCapabilities advertises exactly what the server implements. To add
// a feature: implement its protocol.Server method in a <feature>.go file
// and set its provider field here.
func (s *server) serverCapabilities() protocol.ServerCapabilities {
	yes := true
	incremental := protocol.TextDocumentSyncKindIncremental
	caps := protocol.ServerCapabilities{
		PositionEncoding: encodingKind(s.enc),
		TextDocumentSync: &protocol.TextDocumentSyncOptions{
			OpenClose: &yes,
			Change:    &incremental,
			Save:      protocol.Boolean(true),
		},
		FoldingRangeProvider:            protocol.Boolean(true),
		DocumentSymbolProvider:          protocol.Boolean(true),
		DocumentFormattingProvider:      protocol.Boolean(true),
		DocumentRangeFormattingProvider: protocol.Boolean(true),
		ExecuteCommandProvider:          protocol.ExecuteCommandOptions{Commands: commands},
		CompletionProvider: &protocol.CompletionOptions{
			TriggerCharacters: []string{".", "(", ",", "{", "$", "\"", "["},
			ResolveProvider:   &yes,
		},
		HoverProvider: protocol.Boolean(true),
		SignatureHelpProvider: &protocol.SignatureHelpOptions{
			TriggerCharacters:   []string{"(", ","},
			RetriggerCharacters: []string{")"},
		},
		DefinitionProvider:        protocol.Boolean(true),
		ReferencesProvider:        protocol.Boolean(true),
		DocumentHighlightProvider: protocol.Boolean(true),
		RenameProvider:            &protocol.RenameOptions{PrepareProvider: &yes},
		WorkspaceSymbolProvider:   protocol.Boolean(true),
		SemanticTokensProvider: &protocol.SemanticTokensOptions{
			Legend: s.semanticLegend(),
			Full:   &protocol.SemanticTokensFullDelta{Delta: &yes},
			Range:  protocol.Boolean(true),
		},
		SelectionRangeProvider: protocol.Boolean(true),
		InlayHintProvider:      protocol.Boolean(true),
		DocumentLinkProvider:   &protocol.DocumentLinkOptions{},
		CodeLensProvider:       &protocol.CodeLensOptions{},
		Workspace: &protocol.WorkspaceOptions{WorkspaceFolders: &protocol.WorkspaceFoldersServerCapabilities{
			Supported: &yes, ChangeNotifications: protocol.Boolean(true),
		}},
		CodeActionProvider: &protocol.CodeActionOptions{
			CodeActionKinds: []protocol.CodeActionKind{protocol.CodeActionKindQuickFix, protocol.CodeActionKindRefactorExtract},
		},
	}
	if s.caps.pullDiagnostics {
		caps.DiagnosticProvider = &protocol.DiagnosticOptions{
			InterFileDependencies: true,
			WorkspaceDiagnostics:  false,
		}
	}
	return caps
}
