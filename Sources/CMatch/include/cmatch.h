// The matching engine's C interface over OpenCV (SIFT, MAGSAC++, normalised cross-correlation),
// on plain arrays of bytes and points: TegulaMatch calls it, and nothing else sees OpenCV.
// Images are grey, row-major: 8-bit for features (`stride` bytes a row), real levels for
// correlation (`stride` floats a row). Points use OpenCV's convention: the
// centre of the top-left pixel is (0, 0).
#ifndef TEGULA_CMATCH_H
#define TEGULA_CMATCH_H
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// A grey image borrowed from the caller.
typedef struct {
    const uint8_t *pixels;
    int width;
    int height;
    int stride;
} cmatch_image;

/// A grey image of real levels (unrounded luma, a template warped without rounding) borrowed
/// from the caller, `stride` floats a row: where a picture's grey changes by a level or two
/// across a template, whole levels put a staircase into it that moves the correlation's peak.
typedef struct {
    const float *pixels;
    int width;
    int height;
    int stride;
} cmatch_real_image;

/// One correspondence: (ax, ay) in the first image, (bx, by) in the second, and its
/// distinctiveness, 1 − (nearest / second-nearest descriptor distance), in [0, 1].
typedef struct {
    double ax, ay, bx, by;
    double distinctiveness;
} cmatch_pair;

/// How features are matched.
typedef struct {
    /// Keypoints kept per image (cv::SIFT's nfeatures, strongest first).
    int max_features;
    /// Lowe's ratio: a match is kept when nearest < ratio × second-nearest.
    double ratio;
    /// MAGSAC++'s threshold (its maximum sigma), in pixels of the images given.
    double threshold;
    /// MAGSAC++'s iterations at most.
    int max_iterations;
} cmatch_params;

/// SIFT keypoints in both images, RootSIFT descriptors, Lowe's ratio test both ways and mutual
/// nearest neighbours, then a homography a → b by MAGSAC++ (cv::findHomography with
/// cv::USAC_MAGSAC). Writes the homography (row-major, 9 values) into `h` and up to `capacity`
/// inlier pairs into `pairs`. Returns the number of inliers, 0 when no homography was found, or
/// −1 when OpenCV failed (an exception; nothing written).
int cmatch_features(cmatch_image a, cmatch_image b, cmatch_params params, double h[9],
                    cmatch_pair *pairs, int capacity, int *tentative);

/// Renders `src` into `dst` (`dst_width` × `dst_height`, tightly packed) through the homography
/// `h` that maps a `dst` position to a `src` position (OpenCV's WARP_INVERSE_MAP), bilinear,
/// after a Gaussian blur of `blur_sigma` source pixels (0: none) against aliasing when the warp
/// reduces, in real levels (nothing rounded). Returns 0, or −1 when OpenCV failed.
int cmatch_warp_real(cmatch_real_image src, const double h[9], double blur_sigma, float *dst, int dst_width, int dst_height);

/// Where `templ` fits best in `search` (cv::matchTemplate, TM_CCOEFF_NORMED, in real levels): the
/// top-left offset of the best fit, refined to a fraction of a pixel by a parabola through the
/// peak and its neighbours on each axis, into `x` and `y`, and the peak's correlation into
/// `score`. Returns 0; 1 when the peak is on the border of the search (no parabola, not a
/// trustworthy fit); 2 when the template is flat (a deviation under 2 levels: no contrast to
/// correlate); −1 when OpenCV failed.
int cmatch_locate_real(cmatch_real_image search, cmatch_real_image templ, double *x, double *y, double *score);

/// Least-squares homography a → b through `count` pairs (cv::findHomography, method 0) into `h`.
/// Returns 0, or −1 when the points do not determine one.
int cmatch_homography(const cmatch_pair *pairs, int count, double h[9]);

/// The area of the intersection of two convex polygons (cv::intersectConvexConvex); `a` and `b`
/// are `na` and `nb` points as x, y pairs. Returns −1 when OpenCV failed.
double cmatch_convex_intersection(const double *a, int na, const double *b, int nb);

/// The area of the convex hull of `count` points given as x, y pairs (cv::convexHull).
double cmatch_hull_area(const double *points, int count);

#ifdef __cplusplus
}
#endif

#endif
