package api

import (
	"crypto/md5"
	"crypto/sha256"
	"encoding/hex"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
)

// Multipart uploads (what the SDKs' upload helpers do for a body over 5
// MB, CDK's assets among them): the parts wait in
// DIR/.stacksim-uploads/UPLOADID/PARTNUMBER until CompleteMultipartUpload
// joins the parts it lists, in its order, into the object.

// uploadID is the id of an upload: derived from what it uploads and the
// request that began it (counted), so that a run is reproducible.
func uploadID(bucket, key, requestID string) string {
	sum := sha256.Sum256([]byte(bucket + "\x00" + key + "\x00" + requestID))
	return hex.EncodeToString(sum[:16])
}

var uploadIDPattern = regexp.MustCompile(`^[0-9a-f]{32}$`)

func (s *Server) multipart(w http.ResponseWriter, r *http.Request, op, bucket, key, file, id string) int {
	dir := s.e.S3Dir()
	fail := func(status int, code, msg string) int {
		return s.writeS3Error(w, r, &s3Error{status: status, code: code, message: msg, key: key}, id)
	}
	if op == "CreateMultipartUpload" {
		up := uploadID(bucket, key, id)
		if err := os.MkdirAll(filepath.Join(dir, uploadsDir, up), 0o755); err != nil {
			return fail(http.StatusInternalServerError, "InternalError", err.Error())
		}
		return s.writeS3XML(w, http.StatusOK, struct {
			XMLName  xml.Name `xml:"http://s3.amazonaws.com/doc/2006-03-01/ InitiateMultipartUploadResult"`
			Bucket   string   `xml:"Bucket"`
			Key      string   `xml:"Key"`
			UploadID string   `xml:"UploadId"`
		}{Bucket: bucket, Key: key, UploadID: up}, id)
	}
	up := r.URL.Query().Get("uploadId")
	updir := filepath.Join(dir, uploadsDir, up)
	if st, err := os.Stat(updir); !uploadIDPattern.MatchString(up) || err != nil || !st.IsDir() {
		return fail(http.StatusNotFound, "NoSuchUpload", "The specified upload does not exist. The upload ID may be invalid, or the upload may have been aborted or completed.")
	}
	switch op {
	case "UploadPart":
		n, err := strconv.Atoi(r.URL.Query().Get("partNumber"))
		if err != nil || n < 1 || n > 10000 {
			return fail(http.StatusBadRequest, "InvalidArgument", "Part number must be an integer between 1 and 10000, inclusive")
		}
		data, err := readObjectBody(w, r, s3MaxBodyBytes)
		if err != nil {
			return fail(http.StatusBadRequest, "IncompleteBody", err.Error())
		}
		if err := writeFileAtomic(filepath.Join(updir, strconv.Itoa(n)), data); err != nil {
			return fail(http.StatusInternalServerError, "InternalError", err.Error())
		}
		w.Header().Set("ETag", etagOf(data))
		w.Header().Set("Content-Length", "0")
		w.WriteHeader(http.StatusOK)
		return http.StatusOK
	case "AbortMultipartUpload":
		if err := os.RemoveAll(updir); err != nil {
			return fail(http.StatusInternalServerError, "InternalError", err.Error())
		}
		w.WriteHeader(http.StatusNoContent)
		return http.StatusNoContent
	}
	// CompleteMultipartUpload: the parts it lists, each as it was uploaded.
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 1<<20))
	if err != nil {
		return fail(http.StatusBadRequest, "MalformedXML", "The XML you provided was not well-formed or did not validate against our published schema")
	}
	var req struct {
		Parts []struct {
			PartNumber int    `xml:"PartNumber"`
			ETag       string `xml:"ETag"`
		} `xml:"Part"`
	}
	if err := xml.Unmarshal(body, &req); err != nil || len(req.Parts) == 0 {
		return fail(http.StatusBadRequest, "MalformedXML", "The XML you provided was not well-formed or did not validate against our published schema")
	}
	var whole []byte
	sums := md5.New()
	for i, p := range req.Parts {
		if i > 0 && p.PartNumber <= req.Parts[i-1].PartNumber {
			return fail(http.StatusBadRequest, "InvalidPartOrder", "The list of parts was not in ascending order. The parts list must be specified in order by part number.")
		}
		data, err := os.ReadFile(filepath.Join(updir, strconv.Itoa(p.PartNumber)))
		if errors.Is(err, fs.ErrNotExist) || err == nil && p.ETag != "" && p.ETag != etagOf(data) {
			return fail(http.StatusBadRequest, "InvalidPart", fmt.Sprintf("One or more of the specified parts could not be found. The part may not have been uploaded, or the specified entity tag may not match the part's entity tag. (part %d)", p.PartNumber))
		}
		if err != nil {
			return fail(http.StatusInternalServerError, "InternalError", err.Error())
		}
		sum := md5.Sum(data)
		sums.Write(sum[:])
		whole = append(whole, data...)
	}
	if err := writeFileAtomic(file, whole); err != nil {
		return fail(http.StatusInternalServerError, "InternalError", err.Error())
	}
	_ = os.RemoveAll(updir)
	etag := fmt.Sprintf(`"%s-%d"`, hex.EncodeToString(sums.Sum(nil)), len(req.Parts))
	return s.writeS3XML(w, http.StatusOK, struct {
		XMLName  xml.Name `xml:"http://s3.amazonaws.com/doc/2006-03-01/ CompleteMultipartUploadResult"`
		Location string   `xml:"Location"`
		Bucket   string   `xml:"Bucket"`
		Key      string   `xml:"Key"`
		ETag     string   `xml:"ETag"`
	}{Location: "/" + bucket + "/" + key, Bucket: bucket, Key: key, ETag: etag}, id)
}
