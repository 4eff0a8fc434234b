package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/stacksim/stacksim/engine"
	"github.com/stacksim/stacksim/internal/pkgexport"
)

// stacksim package: `aws cloudformation package` (AWS CLI v1,
// awscli/customizations/cloudformation/package.py) into the local S3
// directory (--s3-dir). The artefacts are exported by internal/pkgexport;
// this file reads the flags and prints what the AWS CLI prints: a line
// break and the template on stdout, or the "Successfully packaged ..."
// message when --output-template-file is given; the progress lines on
// stderr; an error after a line break on stderr, exit status 255.

func (a *app) packageCommand() *cobra.Command {
	var templateFile, bucket, prefix, kmsKeyID, outputFile string
	var useJSON, force bool
	var metadata []string
	cmd := &cobra.Command{
		Use:   "package --template-file PATH --s3-bucket BUCKET [--s3-prefix PREFIX] [--output-template-file PATH]",
		Short: "Upload a template's local artefacts into the local S3 directory, as aws cloudformation package does",
		Long: `Package a template as 'aws cloudformation package' does: the local files and
folders its resources name (a Lambda function's Code, a SAM function's
CodeUri, a nested stack's TemplateURL, AWS::Include's Location, and the
other properties the AWS CLI packages) are zipped or copied into S3 under
the MD5 of their content, and the template is rewritten to name them:
Code as S3Bucket/S3Key, CodeUri as s3://BUCKET/KEY, a TemplateURL as the
https URL of the nested template, itself packaged. Paths are relative to
the template's folder. S3 is the directory of the global --s3-dir DIR: the
object KEY of BUCKET is the file DIR/BUCKET/KEY, and the bucket must be
there (mkdir DIR/BUCKET, as 'aws s3 mb' would make it). Zips are made with
fixed timestamps and sorted entries, so the same content has the same key.`,
		Example: `  mkdir -p s3/artefacts
  stacksim package --s3-dir s3 --template-file app.yaml --s3-bucket artefacts --output-template-file packaged.yaml
  stacksim package --s3-dir s3 --template-file app.yaml --s3-bucket artefacts --s3-prefix app --use-json
  stacksim deploy --s3-dir s3 --template-file packaged.yaml --stack-name app --s3-bucket artefacts`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if templateFile == "" || bucket == "" {
				return badInput(errors.New("the following arguments are required: --template-file, --s3-bucket"))
			}
			if a.s3Dir == "" {
				return badInput(fmt.Errorf("package uploads into the local S3 directory: give the global --s3-dir DIR (the bucket %s is the directory DIR/%s)", bucket, bucket))
			}
			if err := checkDir("--s3-dir", a.s3Dir); err != nil {
				return badInput(err)
			}
			meta, err := parseMetadata(metadata)
			if err != nil {
				return err
			}
			if st, err := os.Stat(templateFile); err != nil || !st.Mode().IsRegular() {
				return deployFailed(a, &pkgexport.InvalidTemplatePathError{Path: templateFile})
			}
			u := a.uploader(bucket, prefix, kmsKeyID, force)
			u.Metadata = meta
			cwd, err := os.Getwd()
			if err != nil {
				return err
			}
			root, err := pkgexport.Export(templateFile, cwd, u)
			if err != nil {
				return deployFailed(a, err)
			}
			out := pkgexport.YAML(root)
			if useJSON {
				out = pkgexport.JSON(root)
			}
			fmt.Fprint(a.stdout, "\n")
			if outputFile == "" {
				_, err := a.stdout.Write(out)
				return err
			}
			if err := os.WriteFile(outputFile, out, 0o644); err != nil {
				return deployFailed(a, fmt.Errorf("writing the packaged template to --output-template-file %s: %w", outputFile, err))
			}
			abs, err := filepath.Abs(outputFile)
			if err != nil {
				abs = outputFile
			}
			fmt.Fprintf(a.stdout, "Successfully packaged artifacts and wrote output template to file %s.\n"+
				"Execute the following command to deploy the packaged template\n"+
				"aws cloudformation deploy --template-file %s --stack-name <YOUR STACK NAME>\n", outputFile, abs)
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&templateFile, "template-file", "", "the template whose local artefacts to package")
	f.StringVar(&bucket, "s3-bucket", "", "the bucket of the local S3 directory (--s3-dir DIR: the directory DIR/BUCKET)")
	f.StringVar(&prefix, "s3-prefix", "", "a prefix of the objects' keys: PREFIX/HASH")
	f.StringVar(&kmsKeyID, "kms-key-id", "", "a KMS key to encrypt the objects with (recorded with each object, in DIR/.metadata)")
	f.StringVar(&outputFile, "output-template-file", "", "where to write the packaged template (else it is printed)")
	f.BoolVar(&useJSON, "use-json", false, "write the packaged template as JSON (YAML by default)")
	f.BoolVar(&force, "force-upload", false, "write the objects even when objects of their keys are there")
	f.StringArrayVar(&metadata, "metadata", nil, "metadata of every object: k1=v1,k2=v2 or {\"k1\":\"v1\"} (recorded with each object)")
	return cmd
}

// uploader is the AWS CLI's S3Uploader on the local S3 directory, its
// progress on stderr and its URLs on the endpoint of the region (--region,
// else stacksim's).
func (a *app) uploader(bucket, prefix, kmsKeyID string, force bool) *pkgexport.Uploader {
	region := a.aws.region
	if region == "" {
		region = engine.DefaultRegion
	}
	return &pkgexport.Uploader{Dir: a.s3Dir, Bucket: bucket, Prefix: prefix, KMSKeyID: kmsKeyID, Force: force,
		Endpoint: pkgexport.Endpoint(region), Progress: a.stderr}
}

// parseMetadata reads --metadata as the AWS CLI reads a map argument: JSON
// or shorthand (k1=v1,k2=v2), every value a string.
func parseMetadata(args []string) (map[string]string, error) {
	if len(args) == 0 {
		return nil, nil
	}
	out := map[string]string{}
	for _, arg := range args {
		s := strings.TrimSpace(arg)
		if strings.HasPrefix(s, "{") {
			if err := checkJSONArg("--metadata", arg); err != nil {
				return nil, badInput(err)
			}
			var m map[string]string
			if err := json.Unmarshal([]byte(s), &m); err != nil {
				return nil, badInput(fmt.Errorf("Error parsing parameter '--metadata': Invalid JSON: %v\nJSON received: %s", err, s))
			}
			for k, v := range m {
				out[k] = v
			}
			continue
		}
		vals, keys, err := parseShorthand(s)
		if err != nil {
			return nil, badInput(fmt.Errorf("Error parsing parameter '--metadata': %v", err))
		}
		sort.Strings(keys)
		for _, k := range keys {
			v, ok := vals[k].(string)
			if !ok {
				return nil, badInput(fmt.Errorf("Error parsing parameter '--metadata': the value of %s must be a string", k))
			}
			out[k] = v
		}
	}
	return out, nil
}
