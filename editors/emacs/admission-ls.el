;;; admission-ls.el --- admission-ls for Emacs: eglot and lsp-mode configuration  -*- lexical-binding: t; -*-

;; Copyright The admission-ls authors
;; SPDX-License-Identifier: Apache-2.0
;; Package-Requires: ((emacs "27.1"))

;;; Commentary:

;; Puts YAML files holding admission documents into `admission-ls-yaml-mode' (a YAML mode, derived
;; from `yaml-ts-mode' or `yaml-mode' when present) and starts the admission-ls language server for
;; them, with eglot (built into Emacs 29+, the `eglot' package before) or lsp-mode.  Other YAML
;; files keep their usual mode and server.
;;
;; The files attached are those of the VS Code extension and the Neovim plugin (one rule, see
;; `admission-ls-text-p'): a `.yaml'/`.yml' file with, in its first MiB, an `apiVersion:' line of
;; `admissionregistration.k8s.io' (policies, bindings, ValidatingWebhookConfiguration,
;; MutatingWebhookConfiguration), `policies.kyverno.io' (Kyverno's CEL policies),
;; `templates.gatekeeper.sh' or `constraints.gatekeeper.sh', a `kind: PolicyTest' line, or both an
;; `apiVersion:' line and a `kind:' line of: `apiextensions.k8s.io' CustomResourceDefinition,
;; `cli.kyverno.io' Test, `test.gatekeeper.sh' Suite, `resource.k8s.io' DeviceClass,
;; ResourceClaim, ResourceClaimTemplate or ResourceSlice, `apiserver.config.k8s.io'
;; AuthenticationConfiguration or AuthorizationConfiguration.  Helm chart templates (`.yaml' files
;; of a chart's `templates' folder with `{{ ... }}' actions) follow the same rule: the content test
;; of `magic-mode-alist' comes before any mode a file name would pick.
;;
;;   (add-to-list 'load-path "/path/to/admission-ls/editors/emacs")
;;   (require 'admission-ls)
;;   (setq admission-ls-settings '(:kubernetesVersion "1.31"))   ; optional
;;   (admission-ls-eglot-setup)      ; or (admission-ls-lsp-mode-setup) for lsp-mode
;;
;; Diagnostics show through flymake (eglot) or flycheck/flymake (lsp-mode).
;;
;; Live verdicts (a policy evaluated against the samples its `# admission-ls: object=FILE'
;; modeline names, after each edit) are inlay hints.  Eglot before 1.14 (Emacs 28) shows no inlay
;; hints, so with eglot this package asks for them itself, after each diagnostics report and when
;; the server says they changed (`workspace/inlayHint/refresh'), and shows each at the end of its
;; line, its trace as the tooltip (`admission-ls-verdicts-mode').  Where eglot has
;; `eglot-inlay-hints-mode' (1.14+, Emacs 29+) that mode shows them instead.  Setting
;; `admission-ls-live-verdicts' to nil turns them off in the server too.
;;
;; `admission-ls-test' runs test suites (the current file's, or with a prefix argument those under
;; a file or folder you name) with `admission-ls test --format compact' in a compilation buffer:
;; each failing case is a `file:line:column: error:' line, so `next-error' (M-g n) visits the cases
;; that failed.

;;; Code:

(require 'cl-lib)
(require 'seq)

(defvar eglot-server-programs)
(defvar eglot-workspace-configuration)
(defvar lsp-language-id-configuration)
(declare-function eglot-ensure "eglot")
(declare-function eglot-current-server "eglot")
(declare-function eglot--managed-buffers "eglot")
(declare-function eglot--uri-to-path "eglot")
(declare-function eglot--signal-textDocument/didChange "eglot")
(declare-function eglot--TextDocumentIdentifier "eglot")
(declare-function eglot--pos-to-lsp-position "eglot")
(declare-function eglot--lsp-position-to-point "eglot")
(declare-function jsonrpc-async-request "jsonrpc")
(declare-function lsp-register-client "lsp-mode")
(declare-function make-lsp-client "lsp-mode")
(declare-function lsp-stdio-connection "lsp-mode")
(declare-function lsp-activate-on "lsp-mode")
(declare-function lsp-deferred "lsp-mode")

(defgroup admission-ls nil
  "Kubernetes admission policies with the admission-ls language server."
  :group 'tools
  :prefix "admission-ls-")

(defcustom admission-ls-program "admission-ls"
  "The admission-ls binary: a name looked up on `exec-path', or a file name."
  :type 'string)

(defcustom admission-ls-settings nil
  "The settings section `admissionLs', as a plist.
For example
  (:kubernetesVersion \"1.31\" :diagnostics (:disabled [\"unknown-field\"])).
Sent as initializationOptions and answered to workspace/configuration."
  :type 'sexp)

;;;###autoload
(defcustom admission-ls-live-verdicts t
  "Whether the server computes live verdicts and they show at the end of their lines.
When nil, `admission-ls-settings' is sent with `:liveVerdicts' false (unless it sets
`:liveVerdicts' itself) and no overlay is drawn."
  :type 'boolean)

(defface admission-ls-verdict
  '((t :inherit shadow))
  "The face of a live verdict shown at the end of its line.")

(defconst admission-ls--key "^[ \t]*\\(?:-[ \t]+\\)?[\"']?%s[\"']?[ \t]*:[ \t]*[\"']?"
  "A YAML key line, maybe a list item, key and value maybe quoted.")

(defun admission-ls--line (key value)
  "A regexp for a line with KEY and a value starting with VALUE (a regexp)."
  (concat (format admission-ls--key key) value))

;; Groups whose every document is attached, and the PolicyTest kind.
(defconst admission-ls--alone
  (list (admission-ls--line "apiVersion" "admissionregistration\\.k8s\\.io/")
        (admission-ls--line "apiVersion" "policies\\.kyverno\\.io/")
        (admission-ls--line "apiVersion" "templates\\.gatekeeper\\.sh/")
        (admission-ls--line "apiVersion" "constraints\\.gatekeeper\\.sh/")
        (admission-ls--line "kind" "PolicyTest\\_>"))
  "Lines that alone make a file one the server checks.")

(defun admission-ls--kinds (&rest kinds)
  "A regexp for a `kind:' line of one of KINDS."
  (admission-ls--line "kind" (concat (regexp-opt kinds) "\\_>")))

;; Groups whose documents are attached for some kinds only.
(defconst admission-ls--paired
  (list (cons (admission-ls--line "apiVersion" "apiextensions\\.k8s\\.io/")
              (admission-ls--kinds "CustomResourceDefinition"))
        (cons (admission-ls--line "apiVersion" "cli\\.kyverno\\.io/")
              (admission-ls--kinds "Test"))
        (cons (admission-ls--line "apiVersion" "test\\.gatekeeper\\.sh/")
              (admission-ls--kinds "Suite"))
        (cons (admission-ls--line "apiVersion" "resource\\.k8s\\.io/")
              (admission-ls--kinds "DeviceClass" "ResourceClaim" "ResourceClaimTemplate"
                                   "ResourceSlice"))
        (cons (admission-ls--line "apiVersion" "apiserver\\.config\\.k8s\\.io/")
              (admission-ls--kinds "AuthenticationConfiguration" "AuthorizationConfiguration")))
  "Pairs of an apiVersion line and a kind line that together make a file one the server checks.")

(defun admission-ls-text-p (text)
  "Non-nil when TEXT holds a document the server checks."
  (let ((case-fold-search nil)
        (head (if (> (length text) 1048576) (substring text 0 1048576) text)))
    (or (cl-some (lambda (line) (string-match-p line head)) admission-ls--alone)
        (cl-some (lambda (pair)
                   (and (string-match-p (car pair) head) (string-match-p (cdr pair) head)))
                 admission-ls--paired))))

(defun admission-ls-buffer-p ()
  "Non-nil when the current buffer is a YAML file holding an admission document."
  (and buffer-file-name
       (string-match-p "\\.ya?ml\\'" buffer-file-name)
       (admission-ls-text-p
        (buffer-substring-no-properties (point-min) (min (point-max) (1+ 1048576))))))

(defalias 'admission-ls--parent-mode
  (cond ((and (fboundp 'yaml-ts-mode) (fboundp 'treesit-language-available-p)
              (treesit-language-available-p 'yaml))
         'yaml-ts-mode)
        ((fboundp 'yaml-mode) 'yaml-mode)
        (t 'prog-mode))
  "The YAML mode `admission-ls-yaml-mode' builds on.")

;;;###autoload
(define-derived-mode admission-ls-yaml-mode admission-ls--parent-mode "YAML[admission]"
  "A YAML mode for files holding Kubernetes admission documents.
admission-ls checks them.")

;;;###autoload
(add-to-list 'magic-mode-alist '(admission-ls-buffer-p . admission-ls-yaml-mode))

(defun admission-ls--command ()
  "The server command line."
  (list admission-ls-program "serve" "--stdio"))

(defun admission-ls--settings-object ()
  "`admission-ls-settings' as a JSON object (an empty one when nil).
With `admission-ls-live-verdicts' nil it turns the server's live verdicts off, unless the
settings name `:liveVerdicts' themselves."
  (let ((settings (if (or admission-ls-live-verdicts
                          (plist-member admission-ls-settings :liveVerdicts))
                      admission-ls-settings
                    (append admission-ls-settings '(:liveVerdicts :json-false)))))
    (or settings (make-hash-table))))

;;;###autoload
(defun admission-ls-eglot-setup ()
  "Use eglot for `admission-ls-yaml-mode' buffers, started on opening."
  (require 'eglot)
  (admission-ls--define-eglot-server)
  (add-to-list 'eglot-server-programs
               `((admission-ls-yaml-mode :language-id "yaml")
                 . (admission-ls-eglot-server
                    . (lambda (&rest _)
                        (append (admission-ls--command)
                                (list :initializationOptions (admission-ls--settings-object)))))))
  (setq-default eglot-workspace-configuration
                (cons (cons :admissionLs (admission-ls--settings-object))
                      (assq-delete-all :admissionLs (default-value 'eglot-workspace-configuration))))
  (add-hook 'eglot-managed-mode-hook #'admission-ls--verdicts-follow-eglot)
  (add-hook 'admission-ls-yaml-mode-hook #'eglot-ensure))

;;; Live verdicts as overlays, for eglot without inlay hints.

(defvar-local admission-ls--verdict-overlays nil
  "The overlays showing the current buffer's inlay hints.")

(defun admission-ls--eglot-shows-hints-p ()
  "Non-nil when eglot shows inlay hints itself (`eglot-inlay-hints-mode', eglot 1.14+)."
  (fboundp 'eglot-inlay-hints-mode))

(defun admission-ls--own-hints-p ()
  "Non-nil when this package, not eglot, should show the inlay hints."
  (and admission-ls-live-verdicts (not (admission-ls--eglot-shows-hints-p))))

(defun admission-ls--define-eglot-server ()
  "Define `admission-ls-eglot-server', the eglot server class of admission-ls.
It is eglot's, plus the inlay hint capability and its refresh request where eglot lacks them.
Defined once eglot is loaded, since it derives from eglot's class."
  (unless (find-class 'admission-ls-eglot-server nil)
    (eval
     '(progn
        (defclass admission-ls-eglot-server (eglot-lsp-server) ()
          :documentation "The eglot connection to admission-ls.")
        (cl-defmethod eglot-client-capabilities :around ((_server admission-ls-eglot-server))
          (admission-ls--with-hint-capabilities (cl-call-next-method)))
        (cl-defmethod eglot-handle-notification :after
          ((_server admission-ls-eglot-server) (_method (eql textDocument/publishDiagnostics))
           &key uri &allow-other-keys)
          (admission-ls--hints-after-diagnostics uri))
        ;; An eglot with inlay hints handles the refresh itself (the next method).
        (cl-defmethod eglot-handle-request
          ((server admission-ls-eglot-server) (_method (eql workspace/inlayHint/refresh)) &rest _)
          (if (not (admission-ls--own-hints-p))
              (cl-call-next-method)
            (admission-ls--refresh-hints (eglot--managed-buffers server))
            nil)))
     t)))

(defun admission-ls--with-hint-capabilities (capabilities)
  "CAPABILITIES with inlay hints and their refresh, when this package shows the hints."
  (if (not (admission-ls--own-hints-p))
      capabilities
    (let ((workspace (plist-get capabilities :workspace))
          (document (plist-get capabilities :textDocument)))
      (plist-put (plist-put capabilities
                            :workspace (plist-put workspace :inlayHint '(:refreshSupport t)))
                 :textDocument (plist-put document :inlayHint '(:dynamicRegistration :json-false))))))

(define-minor-mode admission-ls-verdicts-mode
  "Show the server's live verdicts at the end of their lines, their traces as tooltips.
Turned on in eglot-managed `admission-ls-yaml-mode' buffers when eglot shows no inlay hints
itself and `admission-ls-live-verdicts' is non-nil."
  :lighter nil
  (if admission-ls-verdicts-mode
      (admission-ls--request-hints)
    (admission-ls--show-hints nil)))

(defvar eglot--managed-mode)

(defun admission-ls--verdicts-follow-eglot ()
  "Turn `admission-ls-verdicts-mode' on or off as eglot starts or stops managing the buffer."
  (when (derived-mode-p 'admission-ls-yaml-mode)
    (admission-ls-verdicts-mode
     (if (and eglot--managed-mode (admission-ls--own-hints-p)) 1 -1))))

(defun admission-ls--hints-after-diagnostics (uri)
  "Ask for the inlay hints of the buffer visiting URI, whose diagnostics just arrived."
  (let ((buffer (find-buffer-visiting (eglot--uri-to-path uri))))
    (when buffer (admission-ls--refresh-hints (list buffer)))))

(defun admission-ls--refresh-hints (buffers)
  "Ask for the inlay hints of BUFFERS that show verdicts."
  (dolist (buffer buffers)
    (when (buffer-live-p buffer)
      (with-current-buffer buffer
        (when admission-ls-verdicts-mode (admission-ls--request-hints))))))

(defun admission-ls--request-hints ()
  "Ask the server for the current buffer's inlay hints; show them if the text has not changed."
  (let ((server (eglot-current-server))
        (buffer (current-buffer))
        (tick (buffer-chars-modified-tick)))
    (when server
      ;; The server must have the text the positions will refer to.
      (eglot--signal-textDocument/didChange)
      (jsonrpc-async-request
       server :textDocument/inlayHint
       (list :textDocument (eglot--TextDocumentIdentifier)
             :range (save-restriction
                      (widen)
                      (list :start (eglot--pos-to-lsp-position (point-min))
                            :end (eglot--pos-to-lsp-position (point-max)))))
       :success-fn (lambda (hints)
                     (when (buffer-live-p buffer)
                       (with-current-buffer buffer
                         ;; Hints of an older text would sit at the wrong places.
                         (when (and admission-ls-verdicts-mode
                                    (= tick (buffer-chars-modified-tick)))
                           (admission-ls--show-hints hints)))))
       :error-fn #'ignore
       :timeout-fn #'ignore))))

(defun admission-ls--hint-text (hint)
  "The label of HINT (a string or label parts), with its tooltip as help-echo."
  (let* ((label (plist-get hint :label))
         (label (if (stringp label)
                    label
                  (mapconcat (lambda (part) (plist-get part :value)) label "")))
         (tooltip (plist-get hint :tooltip))
         (tooltip (if (stringp tooltip) tooltip (plist-get tooltip :value))))
    (propertize label 'face 'admission-ls-verdict 'help-echo tooltip)))

(defun admission-ls--verdict-hint-p (hint)
  "Non-nil for a live verdict: a hint of no kind.
Type hints (kind 1) belong inside their line, which an overlay at its end cannot show."
  (null (plist-get hint :kind)))

(defun admission-ls--hints-by-line (hints)
  "The verdicts of HINTS by line: (END-OF-LINE TEXT...) lists, each line's texts newest first."
  (let ((lines nil))
    ;; The whole buffer: a narrowed one keeps the verdicts of the lines it hides.
    (save-excursion
      (save-restriction
        (widen)
        (seq-doseq (hint (or hints []))
          (when (admission-ls--verdict-hint-p hint)
            (goto-char (eglot--lsp-position-to-point (plist-get hint :position)))
            (let ((line (assq (line-end-position) lines)))
              (if line
                  (push (admission-ls--hint-text hint) (cdr line))
                (push (list (line-end-position) (admission-ls--hint-text hint)) lines)))))))
    lines))

(defun admission-ls--show-hints (hints)
  "Replace the overlays of the current buffer with those of HINTS, at the end of their lines.
The hints of one line share one overlay, in the server's order."
  (let ((overlays (mapcar #'admission-ls--line-overlay (admission-ls--hints-by-line hints))))
    (mapc #'delete-overlay admission-ls--verdict-overlays)
    (setq admission-ls--verdict-overlays overlays)))

(defun admission-ls--line-overlay (line)
  "An overlay at the end of LINE (its end position and its hints' texts, newest first)."
  (let ((overlay (make-overlay (car line) (car line) nil t nil)))
    (overlay-put overlay 'admission-ls-verdict t)
    (overlay-put overlay 'after-string
                 (concat "   " (mapconcat #'identity (reverse (cdr line)) "  ·  ")))
    overlay))

;;;###autoload
(defun admission-ls-lsp-mode-setup ()
  "Register admission-ls with lsp-mode for `admission-ls-yaml-mode' buffers.
The server starts when such a buffer opens."
  (require 'lsp-mode)
  (add-to-list 'lsp-language-id-configuration '(admission-ls-yaml-mode . "yaml"))
  (lsp-register-client
   (make-lsp-client
    :new-connection (lsp-stdio-connection #'admission-ls--command)
    :activation-fn (lsp-activate-on "yaml")
    :major-modes '(admission-ls-yaml-mode)
    :priority 1
    :server-id 'admission-ls
    ;; The server reads the settings from initializationOptions (workspace/configuration is
    ;; answered by lsp-mode from its registered custom settings, none for admissionLs).
    :initialization-options #'admission-ls--settings-object))
  (add-hook 'admission-ls-yaml-mode-hook #'lsp-deferred))

(defvar compilation-error-regexp-alist)

(define-derived-mode admission-ls-test-mode compilation-mode "admission-ls test"
  "The output of `admission-ls test --format compact'.
Each failing case is one located line."
  ;; The compact lines are `file:line:column: error: ...', which `gnu' reads.
  (setq-local compilation-error-regexp-alist '(gnu)))

(defun admission-ls--test-target (ask)
  "The path `admission-ls-test' runs.
Asked for when ASK, else the current file or folder."
  (cond (ask (read-file-name "Run the suites in (file or folder): " nil nil t))
        (buffer-file-name buffer-file-name)
        (t default-directory)))

;;;###autoload
(defun admission-ls-test (&optional path)
  "Run the test suites of PATH in a compilation buffer.
The command is `admission-ls test --format compact'.  PATH is the current file by default; with a prefix argument, a file or folder is asked for (a
folder runs every suite under it).  Each failing case is a located error for `next-error'."
  (interactive (list (admission-ls--test-target current-prefix-arg)))
  (let* ((path (expand-file-name (or path (admission-ls--test-target nil))))
         (default-directory (if (file-directory-p path)
                                (file-name-as-directory path)
                              (file-name-directory path))))
    (compilation-start
     (mapconcat #'shell-quote-argument
                (list admission-ls-program "test" "--format" "compact" path)
                " ")
     #'admission-ls-test-mode)))

(provide 'admission-ls)
;;; admission-ls.el ends here
