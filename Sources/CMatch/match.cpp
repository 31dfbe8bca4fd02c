// The matching engine's C functions over OpenCV 4.6 (cmatch.h). Every OpenCV exception stops at
// this file's borders and becomes a −1 return.
#include "cmatch.h"

#include <opencv2/calib3d.hpp>
#include <opencv2/core.hpp>
#include <opencv2/features2d.hpp>
#include <opencv2/imgproc.hpp>

#include <cmath>
#include <vector>

namespace {

cv::Mat wrap(const cmatch_image &image) {
    return cv::Mat(image.height, image.width, CV_8UC1, const_cast<uint8_t *>(image.pixels), static_cast<size_t>(image.stride));
}

cv::Mat wrap(const cmatch_real_image &image) {
    return cv::Mat(image.height, image.width, CV_32FC1, const_cast<float *>(image.pixels), static_cast<size_t>(image.stride) * sizeof(float));
}

/// RootSIFT (Arandjelović and Zisserman 2012): each descriptor L1-normalised, then its square
/// root, so Euclidean distance compares as the Hellinger kernel.
void rootSIFT(cv::Mat &descriptors) {
    for (int r = 0; r < descriptors.rows; r++) {
        float *d = descriptors.ptr<float>(r);
        double sum = 0;
        for (int c = 0; c < descriptors.cols; c++) sum += std::fabs(d[c]);
        if (sum <= 0) continue;
        for (int c = 0; c < descriptors.cols; c++) d[c] = static_cast<float>(std::sqrt(std::fabs(d[c]) / sum));
    }
}

cv::Mat homographyMat(const double h[9]) {
    cv::Mat m(3, 3, CV_64F);
    for (int i = 0; i < 9; i++) m.at<double>(i / 3, i % 3) = h[i];
    return m;
}

}  // namespace

extern "C" int cmatch_features(cmatch_image a, cmatch_image b, cmatch_params params, double h[9],
                               cmatch_pair *pairs, int capacity, int *tentative) {
    try {
        *tentative = 0;
        cv::Ptr<cv::SIFT> sift = cv::SIFT::create(params.max_features);
        std::vector<cv::KeyPoint> ka, kb;
        cv::Mat da, db;
        sift->detectAndCompute(wrap(a), cv::noArray(), ka, da);
        sift->detectAndCompute(wrap(b), cv::noArray(), kb, db);
        if (ka.size() < 8 || kb.size() < 8) return 0;
        rootSIFT(da);
        rootSIFT(db);

        cv::BFMatcher matcher(cv::NORM_L2);
        std::vector<std::vector<cv::DMatch>> ab, ba;
        matcher.knnMatch(da, db, ab, 2);
        matcher.knnMatch(db, da, ba, 1);

        std::vector<cv::Point2f> src, dst;
        std::vector<double> distinct;
        for (const auto &m : ab) {
            if (m.size() < 2 || !(m[0].distance < params.ratio * m[1].distance)) continue;
            const int i = m[0].queryIdx, j = m[0].trainIdx;
            if (ba[j].empty() || ba[j][0].trainIdx != i) continue;  // mutual nearest neighbours
            src.push_back(ka[i].pt);
            dst.push_back(kb[j].pt);
            distinct.push_back(m[1].distance > 0 ? 1.0 - m[0].distance / m[1].distance : 0.0);
        }
        *tentative = static_cast<int>(src.size());
        if (src.size() < 8) return 0;

        std::vector<unsigned char> mask;
        cv::Mat model = cv::findHomography(src, dst, cv::USAC_MAGSAC, params.threshold, mask,
                                           params.max_iterations, 0.9999);
        if (model.empty()) return 0;
        for (int i = 0; i < 9; i++) h[i] = model.at<double>(i / 3, i % 3);
        int inliers = 0;
        for (size_t k = 0; k < src.size(); k++) {
            if (!mask[k]) continue;
            if (inliers < capacity) {
                pairs[inliers] = cmatch_pair{src[k].x, src[k].y, dst[k].x, dst[k].y, distinct[k]};
            }
            inliers++;
        }
        return inliers;
    } catch (...) {
        return -1;
    }
}

extern "C" int cmatch_warp_real(cmatch_real_image src, const double h[9], double blur_sigma, float *dst, int dst_width, int dst_height) {
    try {
        cv::Mat source = wrap(src);
        cv::Mat blurred;
        if (blur_sigma > 0.3) {
            cv::GaussianBlur(source, blurred, cv::Size(0, 0), blur_sigma);
        } else {
            blurred = source;
        }
        cv::Mat out(dst_height, dst_width, CV_32FC1, dst);
        cv::warpPerspective(blurred, out, homographyMat(h), out.size(), cv::INTER_LINEAR | cv::WARP_INVERSE_MAP,
                            cv::BORDER_REPLICATE);
        return 0;
    } catch (...) {
        return -1;
    }
}

extern "C" int cmatch_locate_real(cmatch_real_image search, cmatch_real_image templ, double *x, double *y, double *score) {
    try {
        cv::Mat t = wrap(templ);
        cv::Scalar mean, deviation;
        cv::meanStdDev(t, mean, deviation);
        if (deviation[0] < 2.0) return 2;
        cv::Mat result;
        cv::matchTemplate(wrap(search), t, result, cv::TM_CCOEFF_NORMED);
        double best;
        cv::Point peak;
        cv::minMaxLoc(result, nullptr, &best, nullptr, &peak);
        *x = peak.x;
        *y = peak.y;
        *score = best;
        if (peak.x < 1 || peak.y < 1 || peak.x > result.cols - 2 || peak.y > result.rows - 2) return 1;
        // A parabola through the peak and its two neighbours, on each axis.
        auto vertex = [](double l, double c, double r) {
            const double d = l - 2 * c + r;
            return d < 0 ? std::fmax(-0.5, std::fmin(0.5, 0.5 * (l - r) / d)) : 0.0;
        };
        const float *row = result.ptr<float>(peak.y);
        *x += vertex(row[peak.x - 1], row[peak.x], row[peak.x + 1]);
        *y += vertex(result.at<float>(peak.y - 1, peak.x), row[peak.x], result.at<float>(peak.y + 1, peak.x));
        return 0;
    } catch (...) {
        return -1;
    }
}

extern "C" int cmatch_homography(const cmatch_pair *pairs, int count, double h[9]) {
    try {
        if (count < 4) return -1;
        std::vector<cv::Point2d> src, dst;
        for (int i = 0; i < count; i++) {
            src.emplace_back(pairs[i].ax, pairs[i].ay);
            dst.emplace_back(pairs[i].bx, pairs[i].by);
        }
        cv::Mat model = cv::findHomography(src, dst, 0);
        if (model.empty()) return -1;
        for (int i = 0; i < 9; i++) h[i] = model.at<double>(i / 3, i % 3);
        return 0;
    } catch (...) {
        return -1;
    }
}

extern "C" double cmatch_convex_intersection(const double *a, int na, const double *b, int nb) {
    try {
        std::vector<cv::Point2f> pa, pb, out;
        for (int i = 0; i < na; i++) pa.emplace_back(static_cast<float>(a[2 * i]), static_cast<float>(a[2 * i + 1]));
        for (int i = 0; i < nb; i++) pb.emplace_back(static_cast<float>(b[2 * i]), static_cast<float>(b[2 * i + 1]));
        std::vector<cv::Point2f> ha, hb;
        cv::convexHull(pa, ha);
        cv::convexHull(pb, hb);
        return static_cast<double>(cv::intersectConvexConvex(ha, hb, out, true));
    } catch (...) {
        return -1;
    }
}

extern "C" double cmatch_hull_area(const double *points, int count) {
    try {
        if (count < 3) return 0;
        std::vector<cv::Point2f> p, hull;
        for (int i = 0; i < count; i++) p.emplace_back(static_cast<float>(points[2 * i]), static_cast<float>(points[2 * i + 1]));
        cv::convexHull(p, hull);
        return cv::contourArea(hull);
    } catch (...) {
        return -1;
    }
}
